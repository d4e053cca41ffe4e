#!/bin/bash
# The GPU half of bench/mutate (go run ./bench/mutate): runs each mutant's
# conformance tests on the GPU, the launches of every construct and sample
# against the interpreter (TestGPU, at the GPU's own target: sm_90a on an
# H100/H200) and the sm_80 cases against their references (TestGPUSM80,
# sm_80 code through the driver's PTX JIT), and, for a mutant whose
# sanitize.txt names one, compute-sanitizer on a construct's launch with
# the mutant's tri. The baseline (no mutation) must pass; a mutant is
# caught when any of these fails.
#
# Build first, on a machine with Go, from the repository root:
#   go run ./bench/mutate -xz        # bin/mutants/NAME/conformance.test.xz (and tri.xz)
# Run from the repository root:
#   bench/mutate_gpu.sh              # JOBS=8 mutants at a time (default)
#   ONLY='scan-direction f2h-toward-zero' bench/mutate_gpu.sh
# The mutants share tri's cubin cache: a kernel whose CUDA a mutation
# leaves alone is compiled by NVRTC once for all of them.
# Logs go under $OUT (or a temporary folder); the table is printed last:
# each mutant, whether it was caught, and the first failing tests (the
# constructs written for the review's four mutations are reduce_butterfly,
# cast_half_rounding, reduce_xwarp_2d and tensor_desc_store_rows).
set -u
cd "$(dirname "$0")/.."
LOG=${OUT:-$(mktemp -d)}/mutate
mkdir -p "$LOG"
JOBS=${JOBS:-8}
[ -d bin/mutants/baseline ] || { echo "no bin/mutants/baseline: run go run ./bench/mutate first" >&2; exit 1; }
names=${ONLY:-$(cd bin/mutants && ls -d */ | tr -d / | grep -v '^baseline$')}

# unxz expands f.xz to f where go run ./bench/mutate -xz left it so.
unxz() {
	[ -f "$1" ] || [ ! -f "$1.xz" ] && return
	if command -v xz >/dev/null; then
		xz -dkc "$1.xz" >"$1"
	else
		python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1.xz" "$1"
	fi
	chmod +x "$1"
}

one() {
	name=$1
	dir=bin/mutants/$name
	unxz "$dir/conformance.test"
	unxz "$dir/tri"
	log=$LOG/$name.log
	(cd conformance && TRI_REQUIRE_GPU=1 timeout 900 "../$dir/conformance.test" -test.run '^TestGPU(SM80)?$' -test.count=1) >"$log" 2>&1
	rc=$?
	san=""
	if [ -f "$dir/sanitize.txt" ] && command -v compute-sanitizer >/dev/null; then
		read -r tool file <"$dir/sanitize.txt"
		if compute-sanitizer --tool "$tool" --error-exitcode 99 "$dir/tri" run "$file" >"$LOG/$name.$tool.log" 2>&1; then
			san="$tool clean"
		else
			san="$tool FAILS"
		fi
	fi
	fails=$(grep -oE -- '--- FAIL: \S+' "$log" | awk '{print $3}' | grep / | sed 's/^TestGPU\(SM80\)\?\///' | head -6 | tr '\n' ' ')
	nfail=$(grep -cE -- '--- FAIL: \S+/' "$log")
	if [ "$rc" = 0 ]; then verdict="passes"; else verdict="FAILS"; fi
	[ "$rc" = 124 ] && verdict="TIMEOUT"
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$verdict" "$nfail" "$san" "$fails" >"$LOG/$name.row"
}
export -f one unxz
export LOG

echo baseline $names | tr ' ' '\n' | xargs -P "$JOBS" -I{} bash -c 'one {}'

echo
echo "logs: $LOG"
if ! grep -q "	passes	" "$LOG/baseline.row"; then
	echo "the baseline (no mutation) fails: see $LOG/baseline.log; the rows below say nothing until it passes"
fi
printf '%-22s | %-9s | %-7s | %-16s | %s\n' mutant "GPU tests" failing sanitizer "first failing cases"
for n in baseline $names; do
	IFS=$'\t' read -r name verdict nfail san fails <"$LOG/$n.row"
	caught=""
	if [ "$n" != baseline ] && { [ "$verdict" != passes ] || [ "${san#* }" = FAILS ]; }; then caught=" (caught)"; fi
	printf '%-22s | %-9s | %-7s | %-16s | %s%s\n' "$name" "$verdict" "$nfail" "${san:--}" "$fails" "$caught"
done
