#!/usr/bin/env bash
# The GPU check of the multi-dot pipelines on mma.sync (cudagen/mmamulti.go):
# flash attention's two-dot loop software-pipelined with cp.async for sm_80
# to sm_89, run on a newer GPU as sm_80 PTX that the driver JIT-compiles.
# Run from the repository root after building tri:
#
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   CGO_ENABLED=0 go test -c -o bin/conformance.test ./conformance   (optional)
#
# 1. The loops are pipelined at sm_80 (the CUDA of tri build says so).
# 2. tri run --check --arch sm_80 (GPU against the interpreter) on the
#    attention sample, its non-causal and head-dim-128 launches, and the
#    constructs of the path; bin/conformance.test -test.run TestGPUSM80
#    (GPU against the float64 references), if built.
# 3. compute-sanitizer memcheck, racecheck and synccheck on the same files
#    at sm_80.
# 4. Registers and spills of the timed launches at sm_80 (NVRTC's report).
# 5. The attention sample timed by tri bench at sm_80 and at sm_90a, fp16,
#    batch 4, 32 heads, head dim 64 and 128, causal and not, N_CTX 4096,
#    the header's config (BLOCK_M 128, BLOCK_N 64, 8 warps, 3 stages); the
#    last column is the sm_80 figure over the sm_90a one (the target: at
#    least 0.5).
#
# Logs go to $OUT (default /tmp/tri-sm80-attn); the table is printed last.
# Usage: bench/sm80_attn_check.sh [--no-sanitizer] [--no-bench]
set -u
san=1
bench=1
for a in "$@"; do
	case "$a" in
	--no-sanitizer) san=0 ;;
	--no-bench) bench=0 ;;
	*) echo "usage: $0 [--no-sanitizer] [--no-bench]" >&2; exit 2 ;;
	esac
done
TRI=${TRI:-bin/tri}
LOG=${OUT:-/tmp/tri-sm80-attn}
mkdir -p "$LOG"
S="$LOG/summary.txt"
: >"$S"
note() { echo "$*" | tee -a "$S"; }
fail=0

files=(samples/attention_fwd.tri conformance/constructs/attn_sm80.tri conformance/constructs/attn_sm80_bf16.tri
	conformance/constructs/attention_fwd.tri conformance/constructs/attention_fwd_causal.tri)

# The sample's launch, with the header's config, for head dim D, CAUSAL C
# and num_stages ST.
attn_launch() { # C ST
	echo "attn_fwd[(triton.cdiv(N_CTX, 128), Z * H)](q, k, v, sm_scale, M, o, q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3), v.stride(0), v.stride(1), v.stride(2), v.stride(3), o.stride(0), o.stride(1), o.stride(2), o.stride(3), Z, H, N_CTX, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, CAUSAL=$1, num_warps=8, num_stages=$2)"
}
attn_lets() { # Z H N D
	echo "--let Z=$1 --let H=$2 --let N_CTX=$3 --let D=$4 --let sm_scale=0.125"
}
tensor_lets=(--let "q=randn(Z, H, N_CTX, D, dtype='float16')" --let "k=randn(Z, H, N_CTX, D, dtype='float16')"
	--let "v=randn(Z, H, N_CTX, D, dtype='float16')" --let "o=zeros(Z, H, N_CTX, D, dtype='float16')" --let "M=zeros(Z, H, N_CTX)")

echo "== 1. pipelined at sm_80"
for f in "${files[@]}"; do
	n=$("$TRI" build --arch sm_80 "$f" 2>"$LOG/build_$(basename "$f" .tri).err" | grep -c "dot(s) on mma.sync m16n8k16: the loads feeding them stream")
	if [ "$n" -gt 0 ]; then note "ok   $f: $n loop(s) pipelined with cp.async on mma.sync"; else note "FAIL $f: no pipelined loop"; fail=1; fi
done

echo "== 2. tri run --check --arch sm_80"
check() { # NAME FILE [LAUNCH LETS...]
	local name=$1 log="$LOG/check_$1.log"
	shift
	if "$TRI" run --check --arch sm_80 "$@" >"$log" 2>&1; then
		jit=""
		grep -q "through the driver's PTX JIT" "$log" && jit=" (PTX JIT)"
		note "ok   check $name$jit"
	else
		note "FAIL check $name: $(tail -2 "$log" | tr '\n' ' ')"
		fail=1
	fi
}
for f in "${files[@]}"; do check "$(basename "$(dirname "$f")")_$(basename "$f" .tri)" "$f"; done
# shellcheck disable=SC2046
check samples_attention_fwd_noncausal_d64 samples/attention_fwd.tri "$(attn_launch False 3)" $(attn_lets 1 2 300 64) "${tensor_lets[@]}"
# shellcheck disable=SC2046
check samples_attention_fwd_causal_d128 samples/attention_fwd.tri "$(attn_launch True 2)" $(attn_lets 1 2 300 128) "${tensor_lets[@]}"
if [ -x bin/conformance.test ]; then
	if (cd conformance && TRI_REQUIRE_GPU=1 ../bin/conformance.test -test.run 'TestGPUSM80$' -test.v) >"$LOG/gpusm80.log" 2>&1; then
		note "ok   conformance TestGPUSM80 ($(grep -c -- '--- PASS: TestGPUSM80/' "$LOG/gpusm80.log") cases against the float64 references)"
	else
		note "FAIL conformance TestGPUSM80: $(grep -E -- '--- FAIL' "$LOG/gpusm80.log" | tr '\n' ' ')"
		fail=1
	fi
fi

if [ "$san" = 1 ]; then
	echo "== 3. compute-sanitizer at sm_80"
	sanitize() { # FILE TOOL
		local log
		log="$LOG/san_$(basename "$(dirname "$1")")_$(basename "$1" .tri)_$2.log"
		if compute-sanitizer --tool "$2" --error-exitcode 3 "$TRI" run --arch sm_80 "$1" >"$log" 2>&1; then
			echo "ok   $2 $1"
		else
			echo "FAIL $2 $1 (see $log)"
		fi
	}
	export -f sanitize
	export TRI LOG
	for f in "${files[@]}"; do for t in memcheck racecheck synccheck; do echo "$f $t"; done; done |
		xargs -P 4 -n 2 bash -c 'sanitize "$0" "$1"' >"$LOG/sanitizer.out"
	cat "$LOG/sanitizer.out" | tee -a "$S"
	grep -q FAIL "$LOG/sanitizer.out" && fail=1
fi

if [ "$bench" = 1 ]; then
	echo "== 4./5. registers and speed, sm_80 against sm_90a"
	rows=()
	for d in 64 128; do
		for c in True False; do
			l=$(attn_launch "$c" 3)
			# shellcheck disable=SC2046
			lets=($(attn_lets 4 32 4096 "$d") "${tensor_lets[@]}")
			res=$("$TRI" build --arch sm_80 samples/attention_fwd.tri "$l" "${lets[@]}" --dump=resources -o /dev/null 2>&1 |
				grep -oE '[0-9]+ registers, [0-9]+ bytes spill stores' | head -1)
			flops="4.0 * Z * H * N_CTX * N_CTX * D"
			[ "$c" = True ] && flops="2.0 * Z * H * N_CTX * N_CTX * D"
			tf=()
			for a in sm_80 sm_90a; do
				out="$LOG/bench_d${d}_${c}_$a.txt"
				if "$TRI" bench --arch "$a" samples/attention_fwd.tri "$l" "${lets[@]}" --flops "$flops" >"$out" 2>&1; then
					# The last row ends in median, p20 and p80 ms, then TFLOP/s.
					tf+=("$(tail -1 "$out" | awk '{print $NF}')")
				else
					tf+=("")
					note "FAIL bench $a d$d causal=$c: $(tail -2 "$out" | tr '\n' ' ')"
					fail=1
				fi
			done
			ratio=$(awk -v a="${tf[0]:-0}" -v b="${tf[1]:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
			rows+=("$(printf '%-4s %-7s %10s %10s %7s   %s' "$d" "$c" "${tf[0]:--}" "${tf[1]:--}" "$ratio" "${res:-no report}")")
		done
	done
	{
		echo
		echo "samples/attention_fwd.tri, fp16, Z=4 H=32 N_CTX=4096, BLOCK_M 128, BLOCK_N 64, 8 warps, 3 stages (TFLOP/s, tri bench median)"
		printf '%-4s %-7s %10s %10s %7s   %s\n' D causal sm_80 sm_90a ratio "sm_80 registers, spills"
		printf '%s\n' "${rows[@]}"
	} | tee -a "$S"
fi
echo
if [ "$fail" = 0 ]; then note "sm80_attn_check: all passed"; else note "sm80_attn_check: FAILURES above (logs in $LOG)"; fi
exit $fail
