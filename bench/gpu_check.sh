#!/usr/bin/env bash
# The GPU check of tri, run from the repository root on a machine with an
# NVIDIA GPU, CUDA (NVRTC, nvcc, compute-sanitizer) and Python with PyTorch
# and Triton, after building the binaries elsewhere:
#
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   CGO_ENABLED=0 go build -o bin/launchcost ./bench/launchcost
#   for p in nvrtc gpu conformance launch; do CGO_ENABLED=0 go test -c -o bin/$p.test ./$p; done
#
# Cold compile times come first, on an idle machine. The correctness checks
# (Go GPU tests, tri run --check, nvcc, registers and spills, the comparison
# with real Triton, compute-sanitizer) then run side by side; the timings of
# tri against Triton run last, alone on the GPU. Logs go to $LOG_DIR
# (default /tmp/tri-gpu); the summary is printed last. With TRI_TUTORIALS
# set to a folder holding Triton's tutorial files 08 and 09, the timings
# include bench/bench_tutorials.py on them.
#
# Usage: bench/gpu_check.sh [--no-bench | --only-bench] [--jobs N]
# (--only-bench runs the timings alone, for a machine that allows only
# shorter commands than the whole check takes.)
set -u
bench=1
checks=1
jobs=4
while [ $# -gt 0 ]; do
	case "$1" in
	--no-bench) bench=0 ;;
	--only-bench) checks=0 ;;
	--jobs) jobs=$2; shift ;;
	*) echo "usage: $0 [--no-bench | --only-bench] [--jobs N]" >&2; exit 2 ;;
	esac
	shift
done
LOG_DIR=${LOG_DIR:-/tmp/tri-gpu}
mkdir -p "$LOG_DIR"
export TRI_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
export XDG_CACHE_HOME=$(mktemp -d) # a cold cubin cache
S="$LOG_DIR/summary.txt"
: >"$S"
note() { echo "$*" >>"$S"; echo "$*"; }
ms() { echo $(($(date +%s%N) / 1000000)); }
samples=(samples/*.tri)

bin/tri version

if [ "$checks" = 1 ]; then
echo "== cold compile (empty caches)"
t0=$(ms); bin/tri run samples/add.tri >"$LOG_DIR/cold.log" 2>&1; t1=$(ms)
note "cold: tri run samples/add.tri (process start, transpile, NVRTC, launch): $((t1 - t0)) ms"
t0=$(ms); bin/tri run samples/add.tri >>"$LOG_DIR/cold.log" 2>&1; t1=$(ms)
note "warm: tri run samples/add.tri (cubin cached): $((t1 - t0)) ms"
t0=$(ms); bin/tri run samples/softmax.tri >>"$LOG_DIR/cold.log" 2>&1; t1=$(ms)
note "cold: tri run samples/softmax.tri, another kernel, new process, not in the cubin cache: $((t1 - t0)) ms"
TRITON_CACHE_DIR=$(mktemp -d) python3 - <<'PY' 2>&1 | tee -a "$LOG_DIR/cold.log" | grep cold >>"$S"
import importlib.util, shutil, tempfile, time
t0 = time.perf_counter()
import torch, triton
d = tempfile.mkdtemp(); shutil.copy("samples/add.tri", d + "/add.py")
spec = importlib.util.spec_from_file_location("add", d + "/add.py"); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
n = 98432; x = torch.rand(n, device="cuda"); y = torch.rand(n, device="cuda"); o = torch.empty(n, device="cuda")
t1 = time.perf_counter()
m.add_kernel[(triton.cdiv(n, 1024),)](x, y, o, n, BLOCK_SIZE=1024); torch.cuda.synchronize()
t2 = time.perf_counter()
print(f"cold: triton first call of add_kernel (compile + launch): {t2 - t1:.3f} s (imports and setup before it: {t1 - t0:.2f} s)")
PY

gotests() {
	for p in nvrtc gpu conformance launch; do
		[ -x "bin/$p.test" ] || continue
		if (cd "$p" && "../bin/$p.test" -test.count=1 >"$LOG_DIR/gotest_$p.log" 2>&1); then
			note "go test $p (GPU): ok"
		else
			note "go test $p (GPU): FAIL (see gotest_$p.log)"
		fi
	done
}

samplechecks() {
	local pass=0 nv=0 spills=0 tmpcu
	tmpcu=$(mktemp -d)
	for f in "${samples[@]}"; do
		n=$(basename "$f" .tri)
		if bin/tri run --check "$f" >"$LOG_DIR/check_$n.log" 2>&1; then pass=$((pass + 1)); else echo "check FAIL $f" >>"$S"; fi
		if bin/tri build "$f" -o "$tmpcu/$n.cu" && /usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -c -o "$tmpcu/$n.o" "$tmpcu/$n.cu" >"$LOG_DIR/nvcc_$n.log" 2>&1; then nv=$((nv + 1)); else echo "nvcc FAIL $f" >>"$S"; fi
		line=$(bin/tri build "$f" --dump=resources -o /dev/null 2>&1 | grep registers)
		echo "$n: $line" >>"$LOG_DIR/resources.txt"
		case "$line" in *" 0 bytes spill stores, 0 bytes spill loads"*) ;; *) spills=$((spills + 1)) ;; esac
	done
	# The benchmarked configurations too (bench_2d.py).
	for c in 1024:4 4096:16 8192:16; do
		echo "softmax ${c%:*} cols, ${c#*:} warps: $(bin/tri build samples/softmax.tri "softmax_kernel[(R,)](y, x, x.stride(0), y.stride(0), C, BLOCK_SIZE=C, num_warps=${c#*:})" \
			--let R=4096 --let C=${c%:*} --let 'x=empty(R, C)' --let 'y=empty(R, C)' --dump=resources -o /dev/null 2>&1 | grep registers)" >>"$LOG_DIR/resources.txt"
	done
	for c in 1024:4 4096:8 8192:8; do
		echo "layernorm_fwd ${c%:*} cols, ${c#*:} warps: $(bin/tri build samples/layernorm_fwd.tri "_layer_norm_fwd_fused[(R,)](x, y, w, b, m, r, x.stride(0), C, 1e-5, BLOCK_SIZE=C, num_warps=${c#*:})" \
			--let R=4096 --let C=${c%:*} --let "x=empty(R, C, dtype='float16')" --let "y=empty(R, C, dtype='float16')" \
			--let "w=empty(C, dtype='float16')" --let "b=empty(C, dtype='float16')" --let 'm=empty(R)' --let 'r=empty(R)' \
			--dump=resources -o /dev/null 2>&1 | grep registers)" >>"$LOG_DIR/resources.txt"
	done
	# The benchmarked matmul configurations at 4096^3 (bench_matmul.py) and
	# tutorial 03's config 0, the one the tuner picks there.
	local mm="--let m=4096 --let n=4096 --let k=4096 --let a=randn(m,k,dtype='float16') --let b=randn(k,n,dtype='float16') --let c=empty(m,n,dtype='float16')"
	for c in "128 256 64 8 3" "128 128 64 4 4"; do
		set -- $c
		# shellcheck disable=SC2086
		echo "matmul_grouped 4096^3 $1x$2x$3 w$4 s$5: $(bin/tri build samples/matmul_grouped.tri "grouped_matmul_k[(triton.cdiv(m, $1), triton.cdiv(n, $2))](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=$1, bn=$2, bk=$3, group_sz=8, num_warps=$4, num_stages=$5)" \
			$mm --dump=resources -o /dev/null 2>&1 | grep registers)" >>"$LOG_DIR/resources.txt"
	done
	echo "matmul_tutorial03 4096^3 config 0: $(bin/tri build samples/matmul_tutorial03.tri --let M=4096 --let N=4096 --let K=4096 --config 0 \
		--dump=resources -o /dev/null 2>&1 | grep registers)" >>"$LOG_DIR/resources.txt"
	# The benchmarked attention configurations (bench_attention.py's sample).
	local st='q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3), v.stride(0), v.stride(1), v.stride(2), v.stride(3), o.stride(0), o.stride(1), o.stride(2), o.stride(3)'
	for d in 64 128; do for causal in False True; do
		echo "attention_fwd d$d causal=$causal 128x64 w8 s3: $(bin/tri build samples/attention_fwd.tri "attn_fwd[(triton.cdiv(N, 128), Z * H)](q, k, v, 0.1, M, o, $st, Z, H, N, HEAD_DIM=$d, BLOCK_M=128, BLOCK_N=64, CAUSAL=$causal, num_warps=8, num_stages=3)" \
			--let Z=4 --let H=32 --let N=4096 --let "q=empty(Z, H, N, $d, dtype='float16')" --let "k=empty(Z, H, N, $d, dtype='float16')" \
			--let "v=empty(Z, H, N, $d, dtype='float16')" --let "o=empty(Z, H, N, $d, dtype='float16')" --let 'M=empty(Z, H, N)' \
			--dump=resources -o /dev/null 2>&1 | grep registers)" >>"$LOG_DIR/resources.txt"
	done; done
	tail -7 "$LOG_DIR/resources.txt" >>"$S"
	note "tri run --check: $pass of ${#samples[@]} samples pass"
	note "nvcc: $nv of ${#samples[@]} samples compile"
	note "samples with register spills (or no report): $spills (resources.txt)"
}

# The sm_80 fallbacks (mma.sync and ldmatrix, no wgmma or TMA) on this GPU:
# every sample and construct built with --arch sm_80 must match the
# interpreter. On a GPU of a newer major architecture than sm_80's, tri
# compiles them to sm_80 PTX that the driver JIT-compiles, and says so on
# stderr; the summary counts the runs that took that path.
sm80checks() {
	local pass=0 n=0 jit=0 log
	for f in "${samples[@]}" conformance/constructs/*.tri; do
		n=$((n + 1))
		log="$LOG_DIR/sm80_$(basename "$(dirname "$f")")_$(basename "$f" .tri).log"
		if bin/tri run --check --config 0 --arch sm_80 "$f" >"$log" 2>&1; then pass=$((pass + 1)); else echo "sm_80 check FAIL $f" >>"$S"; fi
		grep -q "through the driver's PTX JIT" "$log" && jit=$((jit + 1))
	done
	note "tri run --check --arch sm_80 (the fallbacks): $pass of $n kernels pass; $jit of $n ran through the driver's PTX JIT (the rest as sm_80 cubins, on an sm_8x GPU, or not at all)"
	note "  path: $(grep -h -m1 "through the driver's PTX JIT" "$LOG_DIR"/sm80_*.log | head -1)"
}

sanitize() { # FILE TOOL (autotuned samples with their first config, untuned)
	local log="$LOG_DIR/san_$(basename "$1" .tri)_$2.log"
	if compute-sanitizer --tool "$2" --error-exitcode 3 bin/tri run --config 0 "$1" >"$log" 2>&1; then echo ok; else echo "FAIL $1 $2"; fi
}
export -f sanitize
export LOG_DIR

compare() { # SHARD
	python3 bench/triton_compare.py --tri bin/tri --gpu --log "$LOG_DIR/compare_$1.log" "${@:2}" >"$LOG_DIR/compare_$1.out" 2>&1
}

echo "== correctness checks, side by side"
gotests &
samplechecks &
sm80checks &
(bash bench/matmul_check.sh >"$LOG_DIR/matmul_check.out" 2>&1; note "pipelined matmul checks: $(grep -c '^ok' "$LOG_DIR/matmul_check.out") ok, $(grep -c '^FAIL' "$LOG_DIR/matmul_check.out") FAIL (matmul_check.out)") &
files=("${samples[@]}" conformance/constructs/*.tri)
for ((i = 0; i < jobs; i++)); do
	shard=()
	for ((j = i; j < ${#files[@]}; j += jobs)); do shard+=("${files[j]}"); done
	compare "$i" "${shard[@]}" &
done
for f in "${samples[@]}"; do for t in memcheck racecheck; do echo "$f $t"; done; done |
	xargs -P "$jobs" -n 2 bash -c 'sanitize "$0" "$1"' >"$LOG_DIR/sanitizer.out"
wait
note "compute-sanitizer (memcheck, racecheck): $(grep -c '^ok' "$LOG_DIR/sanitizer.out") of $((${#samples[@]} * 2)) runs clean"
grep FAIL "$LOG_DIR/sanitizer.out" >>"$S"
cat "$LOG_DIR"/compare_*.out >"$LOG_DIR/compare.out"
grep -h -v '^ok ' "$LOG_DIR"/compare_*.out | grep -Ev 'files match Triton|^$|largest float|all other float|^ +[0-9]+  ' >>"$S"
grep -hE '^ +[0-9]+  ' "$LOG_DIR"/compare_*.out | sort -rn | head -15 >"$LOG_DIR/compare_ulps.txt"
note "triton_compare: $(grep -h '^ok ' "$LOG_DIR"/compare_*.out | wc -l) of ${#files[@]} files match Triton (largest differences: compare_ulps.txt)"
fi

if [ "$bench" = 1 ]; then
	echo "== speed against Triton, alone on the GPU"
	lc=()
	[ -x bin/launchcost ] && lc=(--launchcost bin/launchcost)
	python3 bench/bench_1d.py --tri bin/tri "${lc[@]}" >"$LOG_DIR/bench1d.out" 2>&1
	python3 bench/bench_2d.py --tri bin/tri >"$LOG_DIR/bench2d.out" 2>&1
	tail -6 "$LOG_DIR/bench1d.out" >>"$S"
	tail -7 "$LOG_DIR/bench2d.out" >>"$S"
	(cd bench && for c in "128 256 64 8 3" "128 128 64 4 4"; do
		set -- $c
		python3 bench_matmul.py --tri ../bin/tri --sizes 4096,8192 --bm $1 --bn $2 --bk $3 --warps $4 --stages $5 --grouped-only --rounds 2
	done) >"$LOG_DIR/benchmm.out" 2>&1
	grep -A2 '^workload' "$LOG_DIR/benchmm.out" >>"$S"
	python3 bench/bench_attention.py --tri bin/tri --quick >"$LOG_DIR/benchattn.out" 2>&1
	grep -A9 '^workload' "$LOG_DIR/benchattn.out" >>"$S"
	# Triton's tutorials 09 and 08, unchanged, from the folder TRI_TUTORIALS
	# (09-persistent-matmul.py or 09.py, 08-grouped-gemm.py or 08.py); skipped when unset.
	if [ -n "${TRI_TUTORIALS:-}" ]; then
		tut() { for f in "$TRI_TUTORIALS/$1" "$TRI_TUTORIALS/$2"; do [ -f "$f" ] && echo "$f" && return; done; }
		t09=$(tut 09-persistent-matmul.py 09.py)
		t08=$(tut 08-grouped-gemm.py 08.py)
		tutargs=()
		[ -n "$t09" ] && tutargs+=(--tutorial09 "$t09")
		[ -n "$t08" ] && tutargs+=(--tutorial08 "$t08")
		if [ ${#tutargs[@]} -gt 0 ]; then
			python3 bench/bench_tutorials.py --tri bin/tri "${tutargs[@]}" --quick --sizes 4096,8192 >"$LOG_DIR/benchtut.out" 2>&1
			sed -n '/^workload/,$p' "$LOG_DIR/benchtut.out" >>"$S"
		else
			note "bench_tutorials: no 08 or 09 tutorial file in TRI_TUTORIALS=$TRI_TUTORIALS"
		fi
	fi
	LOG_DIR="$LOG_DIR/autotune" bash bench/bench_autotune.sh >"$LOG_DIR/autotune.out" 2>&1
	cat "$LOG_DIR/autotune.out" >>"$S"
fi

echo
echo "== summary"
cat "$S"
