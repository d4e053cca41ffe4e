#!/usr/bin/env bash
# Tutorial 03's autotuned matmul on the GPU, tri against real Triton, from
# the repository root after building bin/tri:
#   1. the first call at M=N=K=4096 in a fresh process with empty caches
#      (compile every config, time each, keep the fastest), for both;
#   2. a second tri process, which must reuse the on-disk choice;
#   3. the tuned kernels' speed, tri bench against triton.testing.do_bench;
#   4. tri bench --sweep over square sizes with a second launch line (the
#      same kernel with 64x64x32 blocks forced), written as CSV and PNG.
# Logs and the CSV/PNG go to $LOG_DIR (default /tmp/tri-autotune).
set -u
LOG_DIR=${LOG_DIR:-/tmp/tri-autotune}
mkdir -p "$LOG_DIR"
export TRI_AUTOTUNE_CACHE=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d)
ms() { echo $(($(date +%s%N) / 1000000)); }
lets=(--let M=4096 --let N=4096 --let K=4096)
t0=$(ms); bin/tri run samples/matmul_tutorial03.tri "${lets[@]}" >"$LOG_DIR/first.log" 2>&1; t1=$(ms)
echo "tri: first call, fresh process, empty caches (compile 8 configs + tune + run): $((t1 - t0)) ms"
grep 'fastest' "$LOG_DIR/first.log"
t0=$(ms); bin/tri run samples/matmul_tutorial03.tri "${lets[@]}" >"$LOG_DIR/second.log" 2>&1; t1=$(ms)
echo "tri: second process (cubins and tuning cached): $((t1 - t0)) ms; $(grep -c 'timing' "$LOG_DIR/second.log") tuning runs; $(grep 'using cached' "$LOG_DIR/second.log")"
TRITON_CACHE_DIR=$(mktemp -d) python3 - <<'PY' 2>&1 | tee "$LOG_DIR/triton.log"
import importlib.util, shutil, tempfile, time
import torch, triton
d = tempfile.mkdtemp(); shutil.copy("samples/matmul_tutorial03.tri", d + "/t03.py")
spec = importlib.util.spec_from_file_location("t03", d + "/t03.py"); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
M = N = K = 4096
a = torch.randn(M, K, device="cuda", dtype=torch.float16); b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
grid = lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']),)
f = lambda: m.matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), ACTIVATION="leaky_relu")
t0 = time.perf_counter(); f(); torch.cuda.synchronize(); t1 = time.perf_counter()
print(f"triton: first call, empty cache (compile 8 configs + tune + run): {(t1 - t0) * 1000:.0f} ms; chose {m.matmul_kernel.best_config}")
ms = triton.testing.do_bench(f, warmup=25, rep=100, return_mode="median")
ref = torch.nn.functional.leaky_relu(torch.matmul(a, b).float(), 0.01).half()
print(f"triton: tuned 4096^3: {2 * M * N * K / ms * 1e-9:.1f} TFLOP/s ({ms:.4f} ms); max |c - torch| {(c.float() - ref.float()).abs().max().item():.3g}")
PY
bin/tri bench samples/matmul_tutorial03.tri "${lets[@]}" --flops '2 * M * N * K' >"$LOG_DIR/tuned.log" 2>&1
echo "tri: tuned 4096^3: $(tail -1 "$LOG_DIR/tuned.log")"
grid="lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']),)"
fixed="matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, ACTIVATION=\"leaky_relu\")"
bin/tri bench samples/matmul_tutorial03.tri --let M=1024 --let N=M --let K=M --sweep M=512,1024,2048,3072,4096,6144,8192 \
	--flops '2 * M * N * K' --compare "$fixed" --csv "$LOG_DIR/sweep.csv" --plot "$LOG_DIR/sweep.png" >"$LOG_DIR/sweep.log" 2>&1
echo "tri bench --sweep (exit $?):"; grep -v autotune "$LOG_DIR/sweep.log" | tail -16
