#!/usr/bin/env bash
# The CUDA that two tri binaries generate, compared byte for byte: the check
# that a change to cudagen's structure leaves its output as it was. Run from
# the repository root:
#
#   d=$(mktemp -d) && git archive HEAD | tar -x -C "$d" &&
#     (cd "$d" && CGO_ENABLED=0 go build -o "$OLDPWD/bin/tri-old" ./cmd/tri)
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   TUT=DIR bench/cudadiff.sh bin/tri-old bin/tri
#
# Both binaries build, at --arch sm_90a and at sm_80:
#   - every samples/*.tri, with each of its @triton.autotune configs;
#   - every conformance construct, with the launch recorded in its header;
#   - the tutorial launches of bench/tutorials/runs.sh (MODE=build) over
#     TUT's 06.py, 08.py, 09.py, 11.py, and, where TUT holds 06_bwd.py (an
#     older tutorial 06 whose backward is the 3.6-era one), runs.sh's
#     backward launches over that file; without TUT the tutorials are left
#     out, and the script says so;
#   - KERNELS random kernels of kernelgen whose dots stand where tri lowers
#     them specially (trifuzz -dots 1), seeds SEED on (default 200 from 1).
# For the samples and the tutorials it also compares `tri review`'s page
# (the pipeline of each loop, its stages and its shared memory), and, where
# NVRTC is found, --dump=resources (registers and shared memory).
#
# A build that fails must fail the same way under both binaries (its exit
# status and its messages are compared too). Work goes to WORK (default a
# new temporary folder); JOBS builds run side by side (default: the CPUs).
# The exit status is 0 when everything is identical, 1 when anything
# differs (the differing files are listed, and diffs of the first few
# printed), 2 on a usage error.
#
# Usage: [TUT=DIR] [KERNELS=N] [SEED=S] [JOBS=J] [WORK=DIR] bench/cudadiff.sh OLD NEW
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
	echo "usage: [TUT=DIR] [KERNELS=N] [SEED=S] [JOBS=J] [WORK=DIR] $0 OLD-TRI NEW-TRI (both executable)" >&2
	exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
cd "$(dirname "$0")/.."
root=$PWD
work=${WORK:-$(mktemp -d)}
kernels=${KERNELS:-200}
seed=${SEED:-1}
jobs=${JOBS:-$(nproc)}
mkdir -p "$work"
rm -rf "$work/old" "$work/new" "$work/kernels"
mkdir -p "$work/old" "$work/new" "$work/kernels"
list=$work/jobs.txt
: >"$list"

# job KIND ID ARGS...: one line of the job list, the arguments quoted for
# the shell; KIND is build (CUDA only) or page (CUDA, review page and
# resources).
job() {
	local kind=$1 id=$2
	shift 2
	printf '%s %s' "$kind" "$id" >>"$list"
	printf ' %q' "$@" >>"$list"
	printf '\n' >>"$list"
}

for arch in sm_90a sm_80; do
	for f in samples/*.tri; do
		n=$(basename "$f" .tri)
		# An autotuned sample is built with each of its configs; the
		# count comes from the message of a config out of range.
		configs=$("$old" build "$f" --config 9999 -o /dev/null 2>&1 | sed -n 's/.* has \([0-9]*\) autotune configs.*/\1/p')
		if [ -n "$configs" ]; then
			for ((c = 0; c < configs; c++)); do
				job page "sample-$n-c$c-$arch" "$f" --config "$c" --arch "$arch"
			done
		else
			job page "sample-$n-$arch" "$f" --arch "$arch"
		fi
	done
	for f in conformance/constructs/*.tri; do
		job build "construct-$(basename "$f" .tri)-$arch" "$f" --arch "$arch"
	done
done

# The tutorials: runs.sh with a tri that only records its build lines.
if [ -n "${TUT:-}" ]; then
	tut=$(realpath "$TUT")
	rec=$work/record-tri
	cat >"$rec" <<'EOF'
#!/usr/bin/env bash
# Records one `tri build ... -o /dev/null` of runs.sh as a job, without
# the output file.
shift # build
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then shift 2; continue; fi
	args+=("$1"); shift
done
n=$(($(cat "$CUDADIFF_COUNT") + 1))
echo "$n" >"$CUDADIFF_COUNT"
printf 'page %s-%s' "$CUDADIFF_PREFIX" "$n" >>"$CUDADIFF_LIST"
printf ' %q' "${args[@]}" >>"$CUDADIFF_LIST"
printf '\n' >>"$CUDADIFF_LIST"
EOF
	chmod +x "$rec"
	export CUDADIFF_LIST=$list CUDADIFF_COUNT=$work/count
	for arch in sm_90a sm_80; do
		echo 0 >"$CUDADIFF_COUNT"
		CUDADIFF_PREFIX=tutorial-$arch TRI=$rec MODE=build ARCH=$arch bench/tutorials/runs.sh "$tut" >/dev/null
		if [ -f "$tut/06_bwd.py" ]; then
			mkdir -p "$work/bwd"
			cp "$tut/06_bwd.py" "$work/bwd/06.py"
			echo 0 >"$CUDADIFF_COUNT"
			CUDADIFF_PREFIX=tutorial06bwd-$arch TRI=$rec MODE=build ARCH=$arch ONLY='06 _attn_bwd' bench/tutorials/runs.sh "$work/bwd" >/dev/null
		fi
	done
else
	echo "note: no TUT folder: the tutorials are left out" >&2
fi

# The random kernels, written once so that both binaries build the same.
if [ "$kernels" -gt 0 ]; then
	CGO_ENABLED=0 go build -o "$work/trifuzz" ./cmd/trifuzz || exit 2
	for ((s = seed; s < seed + kernels; s++)); do
		"$work/trifuzz" -show -dots 1 -seed "$s" >"$work/kernels/seed-$s.tri"
		for arch in sm_90a sm_80; do
			job build "kernel-$s-$arch" "$work/kernels/seed-$s.tri" --arch "$arch"
		done
	done
fi

# Resources need NVRTC (and a GPU); without them they are left out.
resources=0
if "$old" build samples/add.tri --dump=resources -o /dev/null >/dev/null 2>&1; then
	resources=1
else
	echo "note: no NVRTC or GPU here: --dump=resources is left out" >&2
fi

# one BIN SIDE KIND ID ARGS...: builds one job with one binary into
# WORK/SIDE: ID.cu, ID.err (messages and exit status), and for a page
# ID.html and ID.res.
one() {
	local bin=$1 side=$2 kind=$3 id=$4
	shift 4
	local d=$CUDADIFF_WORK/$side
	"$bin" build "$@" -o "$d/$id.cu" >"$d/$id.err" 2>&1
	echo "exit $?" >>"$d/$id.err"
	if [ "$kind" = page ] && [ -s "$d/$id.cu" ]; then
		"$bin" review "$@" -o "$d/$id.html" >/dev/null 2>&1
		# Without NVRTC the page says why it has no ptxas report, with
		# the loader's messages, which vary from run to run.
		[ -f "$d/$id.html" ] && sed -i '/id="noresources"/,/<\/p>/d' "$d/$id.html"
		if [ "$CUDADIFF_RESOURCES" = 1 ]; then
			"$bin" build "$@" --dump=resources -o /dev/null >"$d/$id.res" 2>&1
		fi
	fi
}
export -f one
export CUDADIFF_WORK=$work CUDADIFF_RESOURCES=$resources
start=$SECONDS
while read -r line; do
	printf 'one %q old %s\none %q new %s\n' "$old" "$line" "$new" "$line"
done <"$list" | tr '\n' '\0' | xargs -0 -P "$jobs" -n 1 bash -c 'eval "$1"' one
builds=$(wc -l <"$list")
cu=$(find "$work/old" -name '*.cu' -size +0 | wc -l)
if diff -rq "$work/old" "$work/new" >"$work/diff.txt"; then
	echo "identical: $builds builds ($cu with CUDA) under both binaries, in $((SECONDS - start)) s (work in $work)"
	exit 0
fi
echo "DIFFERENT: $(wc -l <"$work/diff.txt") of $builds builds' files differ (work in $work):"
head -40 "$work/diff.txt"
sed -n 's/^Files \([^ ]*\) and \([^ ]*\) differ$/\1 \2/p' "$work/diff.txt" | head -3 | while read -r a b; do
	diff "$a" "$b" | head -30
done
exit 1
