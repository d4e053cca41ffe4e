#!/usr/bin/env bash
# The GPU check of cudagen's restructuring (issue 25, "cudagen in two
# phases"): the generated CUDA changed only in names and line layout (no line
# over 160 characters, C sub-expressions bound to named locals, one file name
# per kernel in the comments), so every result must be what it was and every
# kernel as fast. Run from the repository root after building the new tri,
# the conformance tests and an old tri from before the change:
#
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   CGO_ENABLED=0 go test -c -o bin/conformance.test ./conformance
#   d=$(mktemp -d) && git archive bec5ed7^ | tar -x -C "$d" &&
#     (cd "$d" && CGO_ENABLED=0 go build -o "$OLDPWD/bin/tri-old" ./cmd/tri)
#
# 1. Conformance on the GPU against the float64 references: TestGPU (sm_90a)
#    and TestGPUSM80 (sm_80 PTX through the driver's JIT).
# 2. tri run --check (GPU against the interpreter) on every sample, at
#    sm_90a and at --arch sm_80, four at a time.
# 3. tri bench of tutorial 03's matmul, the attention sample, softmax and
#    layer norm forward at sizes where time is the GPU's, old binary against
#    new, twice each in turn (old, new, old, new); the table gives the better
#    of each binary's two medians and new over old (1.00 is the same speed;
#    TFLOP/s or GB/s, higher is better).
#
# Logs go to $OUT (default /tmp/tri-structure); the table is printed last.
# Usage: bench/structure_check.sh [--no-conformance] [--no-check] [--no-bench]
set -u
conf=1
check=1
bench=1
for a in "$@"; do
	case "$a" in
	--no-conformance) conf=0 ;;
	--no-check) check=0 ;;
	--no-bench) bench=0 ;;
	*) echo "usage: $0 [--no-conformance] [--no-check] [--no-bench]" >&2; exit 2 ;;
	esac
done
TRI=${TRI:-bin/tri}
OLD=${TRI_OLD:-bin/tri-old}
LOG=${OUT:-/tmp/tri-structure}
mkdir -p "$LOG"
S="$LOG/summary.txt"
: >"$S"
note() { echo "$*" | tee -a "$S"; }
fail=0
for b in "$TRI" "$OLD"; do
	if [ ! -x "$b" ]; then
		echo "missing $b: build it as the comment at the top of $0 says" >&2
		exit 2
	fi
done
start=$SECONDS

if [ "$conf" = 1 ]; then
	echo "== 1. conformance TestGPU and TestGPUSM80"
	if [ -x bin/conformance.test ]; then
		if (cd conformance && TRI_REQUIRE_GPU=1 ../bin/conformance.test -test.run 'TestGPU$|TestGPUSM80' -test.v) >"$LOG/conformance.log" 2>&1; then
			note "ok   conformance: $(grep -c -- '--- PASS: TestGPU/' "$LOG/conformance.log") TestGPU and $(grep -c -- '--- PASS: TestGPUSM80/' "$LOG/conformance.log") TestGPUSM80 cases"
		else
			note "FAIL conformance: $(grep -E -- '--- FAIL' "$LOG/conformance.log" | head -20 | tr '\n' ' ')"
			fail=1
		fi
	else
		note "FAIL conformance: bin/conformance.test not built"
		fail=1
	fi
	echo "   ($((SECONDS - start)) s so far)"
fi

if [ "$check" = 1 ]; then
	echo "== 2. tri run --check on every sample, sm_90a and sm_80"
	checkone() { # FILE ARCH
		local log
		log="$LOG/check_$(basename "$1" .tri)_$2.log"
		if "$TRI" run --check --arch "$2" "$1" >"$log" 2>&1; then
			echo "ok   $2 $1"
		else
			echo "FAIL $2 $1: $(tail -2 "$log" | tr '\n' ' ')"
		fi
	}
	export -f checkone
	export TRI LOG
	for f in samples/*.tri; do
		# The fp8 sample needs sm_89 or later: its sm_80 build is refused.
		for a in sm_90a sm_80; do
			if [ "$a" = sm_80 ] && grep -q '^# arch: ' "$f"; then continue; fi
			echo "$f $a"
		done
	done | xargs -P 4 -n 2 bash -c 'checkone "$0" "$1"' | sort >"$LOG/check.out"
	cat "$LOG/check.out" >>"$S"
	note "$(grep -c '^ok' "$LOG/check.out") checks passed, $(grep -c '^FAIL' "$LOG/check.out") failed"
	grep '^FAIL' "$LOG/check.out"
	grep -q '^FAIL' "$LOG/check.out" && fail=1
	echo "   ($((SECONDS - start)) s so far)"
fi

if [ "$bench" = 1 ]; then
	echo "== 3. tri bench, old against new"
	# name|file|lets and the --flops or --bytes of the sizes.
	cases=(
		"matmul_tutorial03 4096^3|samples/matmul_tutorial03.tri|--let M=4096 --let N=4096 --let K=4096|--flops|2.0 * M * N * K|TFLOP/s"
		"attention_fwd Z4 H32 N4096 d64|samples/attention_fwd.tri|--let Z=4 --let H=32 --let N_CTX=4096|--flops|2.0 * Z * H * N_CTX * N_CTX * D|TFLOP/s"
		"softmax 16384x1024|samples/softmax.tri|--let n_rows=16384 --let n_cols=1024|--bytes|2 * n_rows * n_cols * 4|GB/s"
		"layernorm_fwd 4096x8192 fp16|samples/layernorm_fwd.tri|--let M=4096 --let N=8192|--bytes|2 * M * N * 2|GB/s"
	)
	rows=()
	for c in "${cases[@]}"; do
		IFS='|' read -r name file lets flag expr unit <<<"$c"
		best=()
		for b in "$OLD" "$TRI"; do best+=(0); done
		for round in 1 2; do
			i=0
			for b in "$OLD" "$TRI"; do
				out="$LOG/bench_$(basename "$file" .tri)_$(basename "$b")_$round.txt"
				# shellcheck disable=SC2086
				if "$b" bench --arch sm_90a "$file" $lets "$flag" "$expr" >"$out" 2>&1; then
					v=$(tail -1 "$out" | awk '{print $NF}')
					best[$i]=$(awk -v a="${best[$i]}" -v b="$v" 'BEGIN { print (b > a ? b : a) }')
				else
					note "FAIL bench $(basename "$b") $name: $(tail -2 "$out" | tr '\n' ' ')"
					fail=1
				fi
				i=$((i + 1))
			done
		done
		ratio=$(awk -v a="${best[0]}" -v b="${best[1]}" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')
		rows+=("$(printf '%-32s %10s %10s %7s  %s' "$name" "${best[0]}" "${best[1]}" "$ratio" "$unit")")
	done
	{
		echo
		echo "tri bench --arch sm_90a, best median of two runs each (old: $OLD, new: $TRI)"
		printf '%-32s %10s %10s %7s  %s\n' kernel old new new/old unit
		printf '%s\n' "${rows[@]}"
	} | tee -a "$S"
fi
echo
note "($((SECONDS - start)) s in all)"
if [ "$fail" = 0 ]; then note "structure_check: all passed"; else note "structure_check: FAILURES above (logs in $LOG)"; fi
exit $fail
