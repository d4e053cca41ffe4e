#!/usr/bin/env bash
# The C library export on the GPU: `tri build --aot` exports tutorial 01's
# add_kernel (samples/add.tri) and tutorial 03's matmul_kernel
# (samples/matmul_tutorial03.tri), each in three forms:
#
#   cubin       a cubin compiled by NVRTC now, for this GPU (--embed cubin)
#   source      the CUDA generated for this GPU, compiled by NVRTC at load
#   source80    the CUDA generated for sm_80, compiled at load for this GPU
#
# For each form, bench/aot/check.c (gcc against cuda.h, -lcuda) launches
# both kernels and compares with a CPU reference, and
# bench/aot/check_torch.py loads the same code as a shared library through
# ctypes, launches it on torch tensors (data_ptr(), the current stream) and
# compares with real Triton running the same sample files. A table ends the
# output; the exit status is 1 if anything failed.
#
# Needs bin/tri (CGO_ENABLED=0 go build -o bin/tri ./cmd/tri), gcc, CUDA
# (cuda.h and NVRTC under $CUDA_HOME, default /usr/local/cuda), Python with
# torch and triton. Logs go to $OUT/aot (default: a temporary folder).
#
# Usage: bash bench/aot_check.sh
set -u -o pipefail
cd "$(dirname "$0")/.."
CUDA=${CUDA_HOME:-/usr/local/cuda}
PY=${PYTHON:-python3}
W=${OUT:-$(mktemp -d)}/aot
mkdir -p "$W"
LOG=$W/log.txt
RES=$W/results.txt
: >"$LOG"
: >"$RES"
fail=0

ADD_SIG='*fp32:16, *fp32:16, *fp32:16, i32, 1024'
ADD_GRID='cdiv(n_elements, BLOCK_SIZE), 1, 1'
MM_SIG="*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 128, 128, 32, 8, 'leaky_relu'"
MM_GRID='cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N), 1, 1'
CFLAGS=(-std=c11 -O2 -Wall -Wextra -Werror -I"$CUDA/include")
# The driver's stub library for linking; the real libcuda.so.1 runs.
LIBS=(-L"$CUDA/lib64/stubs" -lcuda -ldl -lm)

step() { # NAME COMMAND...: runs a step, logging it; a failure is a FAIL row
	local name=$1
	shift
	echo "\$ $*" >>"$LOG"
	if ! "$@" >>"$LOG" 2>&1; then
		echo "RESULT - $name - - FAIL - -" >>"$RES"
		echo "FAIL $name (see $LOG)"
		fail=1
		return 1
	fi
}

for form in cubin source source80; do
	d=$W/$form
	mkdir -p "$d"
	case $form in
	cubin) extra=(--embed cubin) ;;
	source) extra=(--embed source) ;;
	source80) extra=(--embed source --arch sm_80) ;;
	esac
	step "$form:export-add" bin/tri build samples/add.tri -k add_kernel --signature "$ADD_SIG" --grid "$ADD_GRID" \
		--aot "$d" "${extra[@]}" || continue
	step "$form:export-matmul" bin/tri build samples/matmul_tutorial03.tri -k matmul_kernel --signature "$MM_SIG" \
		--grid "$MM_GRID" --num-warps 4 --num-stages 4 --aot "$d" "${extra[@]}" || continue
	step "$form:gcc-program" gcc "${CFLAGS[@]}" -I"$d" bench/aot/check.c "$d/add_kernel.c" "$d/matmul_kernel.c" \
		-o "$d/check" "${LIBS[@]}" || continue
	step "$form:gcc-shared" gcc "${CFLAGS[@]}" -shared -fPIC "$d/add_kernel.c" "$d/matmul_kernel.c" \
		-o "$d/libtrikernels.so" "${LIBS[@]}" || continue
	echo "== $form: C program" | tee -a "$LOG"
	"$d/check" "$form" 2>>"$LOG" | tee -a "$LOG" | grep '^RESULT' >>"$RES" || fail=1
	echo "== $form: PyTorch through ctypes, against Triton" | tee -a "$LOG"
	"$PY" bench/aot/check_torch.py --lib "$d/libtrikernels.so" --form "$form" 2>>"$LOG" | tee -a "$LOG" |
		grep '^RESULT' >>"$RES" || fail=1
done

grep -q ' FAIL ' "$RES" && fail=1
[ -s "$RES" ] || fail=1
echo
echo "tri build --aot on the GPU (C: against a CPU reference; python: against Triton; load: first load, NVRTC included for source forms)"
awk 'BEGIN { printf "%-9s %-7s %-7s %-15s %-5s %-12s %s\n", "form", "caller", "kernel", "shape", "", "max |diff|", "load ms" }
	{ printf "%-9s %-7s %-7s %-15s %-5s %-12s %s\n", $3, $2, $4, $5, $6, $7, $8 }' "$RES"
if [ "$fail" = 0 ]; then echo "all ok"; else echo "FAILED (log: $LOG)"; fi
exit $fail
