"""What real Triton does in the launches of its language tests that tri's
replay listed as mismatches but where tri keeps its own result: evidence for
each, printed one line per finding (run by bench/replay_fixes_check.sh).

  cat       tl.cat(x, y, can_reorder=True): the order Triton's GPU gives for
            a few sizes and warp counts, and (under TRITON_INTERPRET=1, in a
            second run) the order of Triton's own interpreter.
  ifreturn  test_constexpr_if_return's kernel: Out is the program id of the
            last program to take the semaphore plus 3, so it depends on the
            order the programs run in; run many times, the values seen.
  store3d   test_tensor_descriptor_store3d's store through a 3-D descriptor
            of shape [10, 50, 119] (bf16) into a [10, 64, 128] buffer filled
            with a sentinel: which elements outside the shape Triton writes,
            counted by their coordinate along the last dimension.
  mulbcast  test_dot_mulbroadcasted's sum(x[:, :, None] * y[None, :, :], 1):
            whether Triton's TTIR turned it into a tt.dot with TF32 inputs,
            and its error against an fp64 reference next to the error of the
            same sum done in fp32.

Usage: python3 bench/replay_fixes_triton.py [cat|ifreturn|store3d|mulbcast]...
"""
import os
import sys

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
DEV = "cpu" if INTERPRET else "cuda"


@triton.jit
def cat_kernel(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    z = tl.cat(tl.load(X + offs), tl.load(Y + offs), can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * N), z)


def order_name(z, x, y):
    n = x.numel()
    if torch.equal(z, torch.cat([x, y])):
        return "concatenation"
    if torch.equal(z, torch.stack([x, y], dim=1).reshape(2 * n)):
        return "interleaved"
    return "other (first 8: %s)" % z[:8].tolist()


def check_cat():
    for n in (128, 256, 1024):
        for warps in (4, 8):
            x = torch.arange(0, n, dtype=torch.int32, device=DEV)
            y = torch.arange(n, 2 * n, dtype=torch.int32, device=DEV)
            z = torch.zeros(2 * n, dtype=torch.int32, device=DEV)
            cat_kernel[(1, )](x, y, z, N=n, num_warps=warps)
            where = "interpreter" if INTERPRET else "GPU"
            print(f"cat {where} N={n} num_warps={warps}: {order_name(z.cpu(), x.cpu(), y.cpu())}")


@triton.jit
def if_return_kernel(Semaphore, Out, total: tl.constexpr):
    if total == 1:
        tl.store(Out, tl.program_id(0))
        return
    prev = tl.atomic_add(Semaphore, 1)
    if prev + 1 != total:
        return
    tl.store(Out, tl.program_id(0) + prev)


def check_if_return():
    seen = {}
    for _ in range(200):
        sem = torch.zeros((), dtype=torch.int32, device=DEV)
        out = torch.full((), -1, dtype=torch.int32, device=DEV)
        if_return_kernel[(4, )](sem, out, 4)
        v = int(out.item())
        seen[v] = seen.get(v, 0) + 1
    print(f"ifreturn 200 launches of grid (4,): Out values seen {dict(sorted(seen.items()))}")


@triton.jit
def store3d_kernel(out_ptr, a_ptr, M, N, K, stride_m, stride_n, stride_k, MB: tl.constexpr, NB: tl.constexpr,
                   KB: tl.constexpr):
    desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N, K], strides=[stride_m, stride_n, stride_k],
                                     block_shape=[MB, NB, KB])
    om, on, ok = tl.program_id(0) * MB, tl.program_id(1) * NB, tl.program_id(2) * KB
    im = om + tl.arange(0, MB)[:, None, None]
    jn = on + tl.arange(0, NB)[None, :, None]
    kk = ok + tl.arange(0, KB)[None, None, :]
    mask = (im < M) & (jn < N) & (kk < K)
    desc.store([om, on, ok], tl.load(a_ptr + im * N * K + jn * K + kk, mask))


def check_store3d():
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=DEV))
    M, N, K = 10, 50, 119
    a = torch.randn(M, N, K, device=DEV).to(torch.bfloat16)
    sentinel = 7.0
    out = torch.full((M, 64, 128), sentinel, dtype=torch.bfloat16, device=DEV)
    grid = (triton.cdiv(M, 8), triton.cdiv(N, 8), triton.cdiv(K, 16))
    store3d_kernel[grid](out, a, M, N, K, *out.stride(), 8, 8, 16)
    o = out.float().cpu()
    inside_ok = torch.equal(o[:, :N, :K], a.float().cpu())
    written = o != sentinel
    written[:, :N, :K] = False
    by_k = {int(k): int(written[:, :, k].sum()) for k in range(K, 128) if written[:, :, k].any()}
    rows_n = sorted({int(n) for n in range(N, 64) if written[:, n, :].any()})
    vals = sorted({float(v) for v in o[written].unique()})[:4]
    print(f"store3d inside the shape equal to the input: {inside_ok}; written outside: {int(written.sum())} "
          f"elements; by last-dim index {by_k}; rows n >= {N} written: {rows_n}; values written there {vals}")


@triton.jit
def mulbcast_kernel(Z, X, Y, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr):
    pn, pm = tl.program_id(1), tl.program_id(0)
    om = tl.arange(0, BM)[:, None]
    on = tl.arange(0, BN)[None, :]
    oak = tl.arange(0, BK)[None, :]
    obk = tl.arange(0, BK)[:, None]
    acc = tl.full((BM, BN), 0.0, tl.float32)
    for r in range(0, K // BK):
        x = tl.expand_dims(tl.load(X + pm * K * BM + om * K + r * BK + oak), axis=2)
        y = tl.expand_dims(tl.load(Y + pn * BN + obk * N + r * N * BK + on), axis=0)
        acc = tl.sum(x * y, axis=1) + acc
    tl.store(Z + pm * BM * N + pn * BN + om * N + on, acc)


def check_mulbcast():
    M, N, K = 256, 192, 160
    g = torch.Generator().manual_seed(17)
    x = (torch.randn(M, K, generator=g) * 0.1).to(DEV)
    y = (torch.randn(K, N, generator=g) * 0.1).to(DEV)
    z = torch.empty(M, N, device=DEV)
    h = mulbcast_kernel[(M // 128, N // 32)](z, x, y, M, N, K, 128, 32, 32)
    ttir = h.asm.get("ttir", "") if hasattr(h, "asm") else ""
    dots = [l.strip() for l in ttir.splitlines() if "tt.dot" in l]
    ref = x.double().cpu() @ y.double().cpu()
    f32 = (x.cpu().unsqueeze(2) * y.cpu().unsqueeze(0)).sum(1)
    err = lambda t: float((t.double().cpu() - ref).abs().max())
    print(f"mulbcast TTIR dots: {dots[:1] or 'none'}")
    print(f"mulbcast max |error| vs fp64: Triton {err(z):.3g}, fp32 sum of fp32 products {err(f32):.3g}")


CHECKS = {"cat": check_cat, "ifreturn": check_if_return, "store3d": check_store3d, "mulbcast": check_mulbcast}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(CHECKS):
        try:
            CHECKS[name]()
        except Exception as e:  # one failing check must not hide the others
            print(f"{name} error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
