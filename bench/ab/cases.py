#!/usr/bin/env python3
"""The kernels bench/ab/ab.py and ncu_pair.sh time and profile, each a launch
that Triton and tri run from the same source on inputs of the same sizes.

  cases.py triton CASE        runs Triton's launch 3 times (for ncu)
  cases.py tricmd CASE TMP    prints tri's `tri run` command (inputs saved under TMP)

CASE: rmsBLOCK (samples/rmsnorm_bf16_2pass.tri, bf16 4096x8192, 8 warps);
s1_dD / s3_dD (samples/attention_fwd.tri at num_stages 1 or 3, 128x64
blocks, 8 warps, fp16, 4x32 heads, N 4096, causal; a trailing n: not
causal); bwd_dD (tutorial 06's _attn_bwd from the file $TUTORIAL06_BWD, its
own config, N 4096); mm4 / mm8 / mm_BM_BN_BK_WARPS_STAGES_SIZE
(samples/matmul_grouped.tri, fp16); decodeD (samples/attention_decode.tri,
64 sequences of 4096 tokens, 8 KV heads of 4 query heads, 8 splits).
"""
import os, sys, shlex, importlib.util, shutil, tempfile
import numpy as np, torch, triton
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "samples")

def load(path, name):
    dst = os.path.join(tempfile.mkdtemp(), name + ".py")
    shutil.copy(path, dst)
    spec = importlib.util.spec_from_file_location(name, dst)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m

def save(tmp, lets, **ts):
    for n, t in ts.items():
        f = f"{tmp}/{n}.npy"; np.save(f, t.cpu().numpy()); lets.append(f"{n}=load('{f}')")

def case(name, tmp):
    torch.manual_seed(0)
    if name.startswith("rms"):
        rows, cols, block = 4096, 8192, int(name[3:])
        m = load(os.path.join(SAMPLES, "rmsnorm_bf16_2pass.tri"), "rms")
        x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
        wt = torch.rand(cols, device="cuda", dtype=torch.bfloat16); y = torch.empty_like(x)
        fn = lambda: m.rms_norm_2pass[(rows,)](x, wt, y, x.stride(0), cols, 1e-6, BLOCK_SIZE=block, num_warps=8)
        launch = f"rms_norm_2pass[(M,)](x, w, y, x.stride(0), N, 1e-6, BLOCK_SIZE={block}, num_warps=8)"
        lets = [f"M={rows}", f"N={cols}", "x=randn(M, N, dtype='bfloat16')", "w=rand(N, dtype='bfloat16')", "y=empty(M, N, dtype='bfloat16')"]
        return fn, os.path.join(SAMPLES, "rmsnorm_bf16_2pass.tri"), launch, lets
    if name.startswith("s1") or name.startswith("s3"):  # s1_d64[n]: num_stages 1 or 3, causal unless n, N 4096
        causal = not name.endswith("n")
        d = int(name.split("_d")[1].rstrip("n")); b, h, n = 4, 32, 4096; bm, bn, nw, ns = 128, 64, 8, int(name[1])
        m = load(os.path.join(SAMPLES, "attention_fwd.tri"), "attn")
        q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q); M = torch.empty(b, h, n, device="cuda")
        strides = [s for t in (q, k, v, o) for s in t.stride()]
        fn = lambda: m.attn_fwd[(triton.cdiv(n, bm), b * h)](q, k, v, 0.125, M, o, *strides, b, h, n,
            HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=nw, num_stages=ns)
        st = lambda x: ", ".join(f"{x}.stride({i})" for i in range(4))
        launch = (f"attn_fwd[(triton.cdiv(N_CTX, {bm}), Z * H)](q, k, v, sm_scale, M, o, {st('q')}, {st('k')}, {st('v')}, "
                  f"{st('o')}, Z, H, N_CTX, HEAD_DIM=D, BLOCK_M={bm}, BLOCK_N={bn}, CAUSAL={causal}, num_warps={nw}, num_stages={ns})")
        lets = [f"Z={b}", f"H={h}", f"N_CTX={n}", f"D={d}", "sm_scale=0.125"]
        if tmp: save(tmp, lets, q=q, k=k, v=v)
        lets += ["o=empty(Z, H, N_CTX, D, dtype='float16')", "M=empty(Z, H, N_CTX)"]
        return fn, os.path.join(SAMPLES, "attention_fwd.tri"), launch, lets
    if name.startswith("bwd"):  # bwd_d64 / bwd_d128, N 4096
        d = int(name.split("_d")[1]); z, h, n = 4, 32, 4096
        path = os.environ.get("TUTORIAL06_BWD", "")
        if not path:
            raise SystemExit("bwd cases need TUTORIAL06_BWD: a tutorial 06 file with the 3.6-era _attn_bwd")
        m = load(path, "t06")
        q, k, v, do = (torch.randn((z, h, n, d), device="cuda", dtype=torch.float16) for _ in range(4))
        M = torch.randn((z, h, n), device="cuda"); delta = torch.randn((z, h, n), device="cuda")
        dq = torch.empty(q.shape, device="cuda"); dk, dv = torch.empty_like(k), torch.empty_like(v)
        fn = lambda: m._attn_bwd[(n // 128, 1, z * h)](q, k, v, 1.3, do, dq, dk, dv, M, delta, *q.stride(), h, n,
            BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=d, num_warps=4, num_stages=5)
        launch = ("_attn_bwd[(N_CTX // 128, 1, Z * H)](q, k, v, sm_scale, do, dq, dk, dv, M, delta, "
          "q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, N_CTX, BLOCK_M1=32, BLOCK_N1=128, "
          "BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=D, num_warps=4, num_stages=5)")
        lets = [f"Z={z}", f"H={h}", f"N_CTX={n}", f"D={d}", "sm_scale=1.3"]
        if tmp: save(tmp, lets, q=q, k=k, v=v, do=do, M=M, delta=delta)
        lets += ["dq=empty(Z, H, N_CTX, D)", "dk=empty(Z, H, N_CTX, D, dtype='float16')", "dv=empty(Z, H, N_CTX, D, dtype='float16')"]
        return fn, path, launch, lets
    if name.startswith("mm"):  # mm8 / mm4: matmul_grouped 4096^3, 128x256x64 w8 s3 or 128x128x64 w4 s4; mm_BM_BN_BK_W_S_SIZE
        if "_" in name:
            bm, bn, bk, w, ns, s_ = (int(x) for x in name.split("_")[1:])
        else:
            w = int(name[2:]); s_ = 4096; bm, bn, bk, ns = (128, 256, 64, 3) if w == 8 else (128, 128, 64, 4)
        m = load(os.path.join(SAMPLES, "matmul_grouped.tri"), "mm")
        a = torch.randn(s_, s_, device="cuda", dtype=torch.float16); b = torch.randn(s_, s_, device="cuda", dtype=torch.float16)
        c = torch.empty(s_, s_, device="cuda", dtype=torch.float16)
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        fn = lambda: m.grouped_matmul_k[(triton.cdiv(s_, bm), triton.cdiv(s_, bn))](a, b, c, s_, s_, s_, *strides,
            bm=bm, bn=bn, bk=bk, group_sz=8, num_warps=w, num_stages=ns)
        launch = (f"grouped_matmul_k[(triton.cdiv(m, {bm}), triton.cdiv(n, {bn}))](a, b, c, m, n, k, a.stride(0), a.stride(1), "
                  f"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm={bm}, bn={bn}, bk={bk}, group_sz=8, num_warps={w}, num_stages={ns})")
        lets = [f"m={s_}", f"n={s_}", f"k={s_}", "a=randn(m, k, dtype='float16')", "b=randn(k, n, dtype='float16')", "c=empty(m, n, dtype='float16')"]
        return fn, os.path.join(SAMPLES, "matmul_grouped.tri"), launch, lets
    if name.startswith("decode"):  # decode128: split-KV paged decode, B 64, 8 KV heads x 4, seq 4096, D 128
        D = int(name[6:]); B, KVH, G, PAGE, MAXP, SPLITS = 64, 8, 4, 16, 256, 8
        m = load(os.path.join(SAMPLES, "attention_decode.tri"), "dec")
        q = torch.randn(B, KVH * G, D, device="cuda", dtype=torch.float16)
        kc = torch.randn(B * MAXP, PAGE, KVH, D, device="cuda", dtype=torch.float16); vc = torch.randn_like(kc)
        bt = torch.randperm(B * MAXP, device="cuda", dtype=torch.int32).reshape(B, MAXP)
        sl = torch.full((B,), MAXP * PAGE, device="cuda", dtype=torch.int32)
        mo = torch.empty(B, KVH * G, SPLITS, D, device="cuda"); ml = torch.empty(B, KVH * G, SPLITS, device="cuda")
        fn = lambda: m.decode_split_kv[(B, KVH, SPLITS)](q, kc, vc, bt, sl, mo, ml, 0.125, q.stride(0), q.stride(1),
            kc.stride(0), kc.stride(1), kc.stride(2), vc.stride(0), vc.stride(1), vc.stride(2), bt.stride(0),
            mo.stride(0), mo.stride(1), mo.stride(2), ml.stride(0), ml.stride(1),
            GROUP=G, BLOCK_H=16, BLOCK_N=32, PAGE_SIZE=PAGE, HEAD_DIM=D, NUM_KV_SPLITS=SPLITS, num_warps=4)
        launch = ("decode_split_kv[(B, KV_H, SPLITS)](q, k_cache, v_cache, block_table, seq_lens, mid_o, mid_lse, sm_scale, "
                  "q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2), v_cache.stride(0), "
                  "v_cache.stride(1), v_cache.stride(2), block_table.stride(0), mid_o.stride(0), mid_o.stride(1), mid_o.stride(2), "
                  "mid_lse.stride(0), mid_lse.stride(1), GROUP=GROUP, BLOCK_H=16, BLOCK_N=32, PAGE_SIZE=PAGE, HEAD_DIM=D, "
                  "NUM_KV_SPLITS=SPLITS, num_warps=4)")
        lets = [f"B={B}", f"KV_H={KVH}", f"GROUP={G}", f"D={D}", f"PAGE={PAGE}", f"SPLITS={SPLITS}", "sm_scale=0.125"]
        if tmp: save(tmp, lets, q=q, k_cache=kc, v_cache=vc, block_table=bt, seq_lens=sl)
        lets += ["mid_o=empty(B, KV_H * GROUP, SPLITS, D)", "mid_lse=empty(B, KV_H * GROUP, SPLITS)"]
        return fn, os.path.join(SAMPLES, "attention_decode.tri"), launch, lets
    raise SystemExit("no case " + name)

if __name__ == "__main__":
    mode, name = sys.argv[1], sys.argv[2]
    tmp = sys.argv[3] if len(sys.argv) > 3 else None
    fn, path, launch, lets = case(name, tmp)
    if mode == "triton":
        for _ in range(3): fn()
        torch.cuda.synchronize()
    else:
        cmd = [os.environ.get("TRI", os.path.join(ROOT, "bin", "tri")), "run", path, launch] + [x for l in lets for x in ("--let", l)]
        print(shlex.join(cmd))
