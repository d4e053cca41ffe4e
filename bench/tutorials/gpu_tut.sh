#!/usr/bin/env bash
# GPU check of Triton 3.6's tutorials 06, 08, 09 and 11 under real Triton and
# under tri, with the same shapes.
#
#   gpu_tut.sh TUTDIR
#
# TUTDIR holds the unchanged tutorials as 06.py 08.py 09.py 11.py. Needs:
# bin/tri (or TRI=...), python with torch and triton 3.6, an sm_90 GPU.
# runs.sh must sit next to this script. TUNE=1 also runs every tri launch on
# the GPU with autotuning (tri run, no --config: times every config as
# Triton's autotuner does); SKIP_TRITON=1 skips the real-Triton part.
#
# The tutorial files are Triton's, unchanged, and are not part of this
# repository: take them from Triton's release/3.6.x branch (tip 7c56a5e4,
# "[release 3.6] Release Triton to pypi"), python/tutorials/
# 06-fused-attention.py, 08-grouped-gemm.py, 09-persistent-matmul.py and
# 11-programmatic-dependent-launch.py, saved as 06.py 08.py 09.py 11.py.
set -u
D=${1:?usage: gpu_tut.sh TUTDIR}
D=$(cd "$D" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
export TRI=${TRI:-$(pwd)/bin/tri}
export MPLBACKEND=Agg
PY=${PY:-python}
status=0
step() { echo; echo "=================== $*"; }

"$TRI" version || { echo "no tri at $TRI"; exit 2; }
$PY -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name())'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true

if [[ -z ${SKIP_TRITON:-} ]]; then
  # ---- real Triton, the tutorials' own checks (and the shapes runs.sh uses)
  step "Triton: 11 (python 11.py: validate(1024) and its benchmark)"
  (cd "$D" && timeout 900 $PY 11.py) || { echo "FAIL triton 11"; status=1; }

  step "Triton: 08 (python 08.py: its own asserts on 1024/512/256/128 gemms, both kernels, then its benchmarks)"
  (cd "$D" && timeout 1800 $PY 08.py) || { echo "FAIL triton 08"; status=1; }

  step "Triton: 09 (validate(32, 32, 32) and validate(384, 256, 320), fp16, every kernel)"
  (cd "$D" && timeout 900 $PY - <<'PYEOF') || { echo "FAIL triton 09"; status=1; }
import importlib.util, torch
spec = importlib.util.spec_from_file_location("t09", "09.py")
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(0)
for M, N, K in [(32, 32, 32), (384, 256, 320)]:
    m.validate(M, N, K, torch.float16)
PYEOF

  step "Triton: 06 (pytest: test_op at N_CTX=128, Z=1, H=2, fwd fp8 and bwd fp16, head dims 64 and 128)"
  (cd "$D" && timeout 1800 $PY -m pytest -q 06.py -k "128-2-1" -rA 2>&1 | tail -25; exit ${PIPESTATUS[0]}) || { echo "FAIL triton 06 pytest"; status=1; }
  step "Triton: 06 (the runs.sh shapes through _attention: fwd fp16 causal and not, D 64/128, bwd)"
  (cd "$D" && timeout 900 $PY - <<'PYEOF') || { echo "FAIL triton 06 shapes"; status=1; }
import importlib.util, os, torch
os.environ["PYTEST_VERSION"] = "tri"  # the tutorial's single test config instead of tuning 36
spec = importlib.util.spec_from_file_location("t06", "06.py")
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(20)
bad = 0
for Z, H, N_CTX, D in [(1, 2, 128, 64), (1, 2, 256, 128)]:
    for causal in (True, False):
        for ws in ((False, True) if not causal else (False,)):  # Hopper: warp_specialize for non-causal fwd only
            q, k, v = (torch.randn((Z, H, N_CTX, D), dtype=torch.float16, device="cuda").requires_grad_() for _ in range(3))
            sm_scale = 0.5
            ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)
            out = m.attention(q, k, v, causal, sm_scale, ws)
            err = (out - ref).abs().max().item()
            line = f"fwd Z={Z} H={H} N_CTX={N_CTX} D={D} causal={causal} warp_specialize={ws}: max err {err:.3g}"
            if causal and not ws:
                do = torch.randn_like(q)
                ref.backward(do); rq, rk, rv = q.grad, k.grad, v.grad; q.grad = k.grad = v.grad = None
                out.backward(do)
                berr = max((a - b).abs().max().item() for a, b in ((q.grad, rq), (k.grad, rk), (v.grad, rv)))
                line += f"; bwd max err {berr:.3g}"
                err = max(err, berr)
            ok = err < 2e-2
            bad += not ok
            print(("PASS " if ok else "FAIL ") + line)
raise SystemExit(1 if bad else 0)
PYEOF
fi

# ---- tri: every kernel on the GPU and in the interpreter, compared (config 0 of autotuned kernels)
step "tri: runs.sh with --check"
MODE=--check "$HERE/runs.sh" "$D" || status=1
step "tri: runs.sh with tri build --arch sm_90a"
MODE=build "$HERE/runs.sh" "$D" || status=1
if [[ -n ${TUNE:-} ]]; then
  step "tri: runs.sh on the GPU with autotuning (every config timed; pre_hooks run per config)"
  MODE=gpu "$HERE/runs.sh" "$D" || status=1
fi
echo; echo "gpu_tut.sh: exit $status"
exit $status
