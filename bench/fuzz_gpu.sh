#!/usr/bin/env bash
# The long mode of the random-kernel fuzzer on a GPU machine: N kernels from
# seed FIRST compared between the GPU and the interpreter, in JOBS processes
# side by side, each over its own range of seeds. A kernel that faults on
# the GPU loses its process's CUDA context, so a process that stops early is
# started again after the seed it stopped at. Build first:
#
#   CGO_ENABLED=0 go build -o bin/trifuzz ./cmd/trifuzz
#
# Usage: [ARCH=sm_80] [DOTS=SHARE] bench/fuzz_gpu.sh [N] [FIRST] [JOBS] [OUT]
#        (default 5000 1 4 fuzz-gpu)
# ARCH is the target (trifuzz -arch; default the GPU's own, sm_90a on an
# H100 or H200): ARCH=sm_80 runs sm_80 code on a later GPU through the
# driver's PTX JIT. DOTS is the share of kernels whose dots stand where tri
# lowers them specially (trifuzz -dots; default 0.15), DOTS=1 for those
# alone. Failing kernels are written to OUT/jJ/ as reproducers (tri run
# --check --arch ARCH FILE); the summary of every process goes to
# OUT/summary.txt.
set -u
n=${1:-5000}
first=${2:-1}
jobs=${3:-4}
out=${4:-fuzz-gpu}
flags=()
[ -n "${ARCH:-}" ] && flags+=(-arch "$ARCH")
[ -n "${DOTS:-}" ] && flags+=(-dots "$DOTS")
mkdir -p "$out"
per=$(((n + jobs - 1) / jobs))

run() { # JOB FROM COUNT
	local j=$1 seed=$2 left=$3 done
	while [ "$left" -gt 0 ]; do
		bin/trifuzz -gpu "${flags[@]}" -n "$left" -seed "$seed" -out "$out/j$j" >"$out/j$j.$seed.txt" 2>"$out/j$j.$seed.err"
		# "N kernels (seeds A to B) in T": how far this process got.
		done=$(sed -n 's/^\([0-9]*\) kernels (seeds.*/\1/p' "$out/j$j.$seed.txt" | tail -1)
		[ -n "$done" ] && [ "$done" -gt 0 ] || done=1
		seed=$((seed + done))
		left=$((left - done))
	done
}

for ((j = 0; j < jobs; j++)); do
	from=$((first + j * per))
	count=$((j == jobs - 1 ? n - j * per : per))
	run "$j" "$from" "$count" &
done
wait
cat "$out"/j*.txt >"$out/summary.txt"
total=$(sed -n 's/^\([0-9]*\) kernels (seeds.*/\1/p' "$out/summary.txt" | awk '{s += $1} END {print s + 0}')
failed=$(sed -n 's/^gpu *[0-9]* *\([0-9]*\)$/\1/p' "$out/summary.txt" | awk '{s += $1} END {print s + 0}')
echo "$total kernels on the GPU against the interpreter (${ARCH:-the GPU target}, dot-position share ${DOTS:-default}), $failed failed at the GPU stage"
grep -h '^FAIL' "$out"/j*.txt | sort | uniq | head -50
