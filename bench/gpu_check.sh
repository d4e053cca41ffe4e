#!/usr/bin/env bash
# The GPU check of tri, run from the repository root on a machine with an
# NVIDIA GPU, CUDA (NVRTC, compute-sanitizer) and Python with PyTorch and
# Triton, after building the binaries elsewhere:
#
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   CGO_ENABLED=0 go build -o bin/launchcost ./bench/launchcost
#   for p in nvrtc conformance launch; do CGO_ENABLED=0 go test -c -o bin/$p.test ./$p; done
#
# Logs go to $LOG_DIR (default /tmp/tri-gpu). The summary is printed last.
set -u
LOG_DIR=${LOG_DIR:-/tmp/tri-gpu}
mkdir -p "$LOG_DIR"
export TRI_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
export XDG_CACHE_HOME=$(mktemp -d) # a cold cubin cache
summary=()
note() { summary+=("$*"); echo "$*"; }

bin/tri version

echo "== cold compile (empty caches): tri run of samples/add.tri, whole process"
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms); bin/tri run samples/add.tri >"$LOG_DIR/cold.log" 2>&1; t1=$(ms)
note "cold: tri run samples/add.tri (process start, transpile, NVRTC, launch): $((t1 - t0)) ms"
t0=$(ms); bin/tri run samples/add.tri >>"$LOG_DIR/cold.log" 2>&1; t1=$(ms)
note "warm: tri run samples/add.tri (cubin cached): $((t1 - t0)) ms"
t0=$(ms); bin/tri run samples/row_chunks.tri >>"$LOG_DIR/cold.log" 2>&1; t1=$(ms)
note "cold: tri run samples/row_chunks.tri, another kernel, new process, not in the cubin cache: $((t1 - t0)) ms"
TRITON_CACHE_DIR=$(mktemp -d) python3 - <<'PY' 2>&1 | tee -a "$LOG_DIR/cold.log"
import importlib.util, shutil, tempfile, time, os
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

echo "== tri run --check on every sample"
pass=0; total=0
for f in samples/*.tri; do
	total=$((total + 1))
	if bin/tri run --check "$f" >"$LOG_DIR/check_$(basename "$f" .tri).log" 2>&1; then pass=$((pass + 1)); echo "ok   $f"; else echo "FAIL $f"; cat "$LOG_DIR/check_$(basename "$f" .tri).log" | tail -5; fi
done
note "tri run --check: $pass of $total samples pass"

echo "== the emitted CUDA of every sample compiles with nvcc"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ok_nvcc=0; tmpcu=$(mktemp -d)
for f in samples/*.tri; do
	n=$(basename "$f" .tri)
	if bin/tri build "$f" -o "$tmpcu/$n.cu" && "$NVCC" -arch=sm_90 -c -o "$tmpcu/$n.o" "$tmpcu/$n.cu" >"$LOG_DIR/nvcc_$n.log" 2>&1; then ok_nvcc=$((ok_nvcc + 1)); else echo "nvcc FAIL $f"; tail -5 "$LOG_DIR/nvcc_$n.log"; fi
done
note "nvcc: $ok_nvcc of $total samples compile"

echo "== registers and spills of every sample (ptxas -v through NVRTC)"
spills=0
for f in samples/*.tri; do
	line=$(bin/tri build "$f" --dump=resources -o /dev/null 2>&1 | grep registers)
	echo "$(basename "$f"): $line"
	case "$line" in *" 0 bytes spill stores, 0 bytes spill loads"*) ;; *) spills=$((spills + 1)) ;; esac
done
note "samples with register spills (or no report): $spills"

echo "== Go GPU tests"
for p in nvrtc conformance launch; do
	if [ -x "bin/$p.test" ]; then
		if (cd "$p" && "../bin/$p.test" -test.count=1 >"$LOG_DIR/gotest_$p.log" 2>&1); then note "go test $p (GPU): ok"; else note "go test $p (GPU): FAIL"; tail -30 "$LOG_DIR/gotest_$p.log"; fi
	fi
done

echo "== compute-sanitizer on every sample"
san=0
for f in samples/*.tri; do
	for tool in memcheck racecheck; do
		if compute-sanitizer --tool $tool --error-exitcode 3 bin/tri run "$f" >"$LOG_DIR/san_$(basename "$f" .tri)_$tool.log" 2>&1; then san=$((san + 1)); else echo "sanitizer $tool FAIL $f"; tail -20 "$LOG_DIR/san_$(basename "$f" .tri)_$tool.log"; fi
	done
done
note "compute-sanitizer (memcheck, racecheck): $san of $((total * 2)) runs clean"

echo "== tri (interpreter and GPU) against real Triton"
python3 bench/triton_compare.py --tri bin/tri --gpu --log "$LOG_DIR/compare.log" samples/*.tri conformance/constructs/*.tri 2>&1 | tee "$LOG_DIR/compare.out" | grep -v '^ok '
note "triton_compare: $(tail -1 "$LOG_DIR/compare.out")"

echo "== speed against Triton"
python3 bench/bench_1d.py --tri bin/tri --launchcost bin/launchcost 2>&1 | tee "$LOG_DIR/bench.out"
if [ -f samples/softmax.tri ] && [ -f samples/layernorm_fwd.tri ]; then
	python3 bench/bench_2d.py --tri bin/tri 2>&1 | tee "$LOG_DIR/bench2d.out"
fi

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
