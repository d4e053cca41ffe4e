"""Reading, writing and comparing .npy files without NumPy.

The recorder runs where torch is (and so NumPy), the replayer anywhere:
comparing a few hundred small outputs needs no NumPy, and the tests of the
replayer run on machines without it. Where NumPy is importable, compare()
uses it for speed on large tensors; both paths give the same answer.

A recorded tensor travels as tri's --save writes it: bfloat16 as float32
(each value exact), fp8 as its uint8 codes. The "logical" dtype kept beside
the file (bfloat16, float8e4nv) tells compare() which grid to count units
in the last place on.
"""
import ast
import math
import struct

MAGIC = b"\x93NUMPY"

# descr -> (struct code, item size)
CODES = {
    "|b1": ("?", 1), "|i1": ("b", 1), "|u1": ("B", 1),
    "<i2": ("h", 2), "<u2": ("H", 2), "<i4": ("i", 4), "<u4": ("I", 4),
    "<i8": ("q", 8), "<u8": ("Q", 8),
    "<f2": ("e", 2), "<f4": ("f", 4), "<f8": ("d", 8),
}


class Array:
    """The contents of a .npy file: descr ('<f4'), shape and raw bytes."""

    def __init__(self, descr, shape, data):
        self.descr, self.shape, self.data = descr, tuple(shape), bytes(data)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def values(self):
        """The elements as Python numbers, in C order."""
        code, _ = CODES[self.descr]
        return list(struct.unpack("<%d%s" % (self.size, code), self.data))


def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:6] != MAGIC:
        raise ValueError(f"{path}: not a .npy file")
    major = raw[6]
    if major == 1:
        (hlen,), start = struct.unpack("<H", raw[8:10]), 10
    else:
        (hlen,), start = struct.unpack("<I", raw[8:12]), 12
    header = ast.literal_eval(raw[start:start + hlen].decode("latin1"))
    if header.get("fortran_order"):
        raise ValueError(f"{path}: Fortran order is not read")
    descr = header["descr"]
    if descr not in CODES:
        # '<b1' and '=f4' spellings of the same formats
        descr = {"<b1": "|b1", "<i1": "|i1", "<u1": "|u1", "=f4": "<f4", "=f2": "<f2", "=f8": "<f8"}.get(descr, descr)
    if descr not in CODES:
        raise ValueError(f"{path}: dtype {header['descr']} is not read")
    return Array(descr, header["shape"], raw[start + hlen:])


def write(path, descr, shape, data):
    """Writes raw little-endian bytes as a version 1.0 .npy file."""
    shape = tuple(int(d) for d in shape)
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    total = len(MAGIC) + 4 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(MAGIC + b"\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(data)


# Float formats: (descr of the container, bits of the logical format that
# the container's top bits hold). bfloat16 lives in float32's top 16 bits.
FLOAT_BITS = {"<f2": 16, "<f4": 32, "<f8": 64}
FP8 = {"float8e4nv", "float8e5", "float8e4b8", "float8e5b16", "float8e4b15",
       "fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16", "fp8e4b15"}


def _ordered(bits, width):
    """Sign-magnitude bits to an integer whose order is the floats' order."""
    sign = 1 << (width - 1)
    mag = bits & (sign - 1)
    return -mag if bits & sign else mag


class Result:
    """How a tensor tri wrote compares with the recorded one.

    kind is "exact" (same bytes, or the same values with NaN where NaN is),
    "ulp" (within the tolerance in units in the last place), "near" (within
    rtol/atol but not the ulps) or "mismatch"; detail says where and how
    much for the last two, and the shape or dtype where those differ.
    """

    def __init__(self, kind, detail="", max_ulp=0, bad=0):
        self.kind, self.detail, self.max_ulp, self.bad = kind, detail, max_ulp, bad

    def __repr__(self):
        return f"Result({self.kind!r}, {self.detail!r})"


ORDER = ["exact", "ulp", "near", "mismatch"]


def worst(results):
    """The worst of several results (mismatch over near over ulp over exact)."""
    return max(results, key=lambda r: ORDER.index(r.kind)) if results else Result("exact")


def compare(got, want, logical="", ulps=4, rtol=1e-2, atol=1e-3):
    """Compares two Arrays. logical is the recorded dtype where the container
    is another (bfloat16 in float32, fp8 codes in uint8)."""
    if got.shape != want.shape and got.size == want.size and got.size <= 1:
        got = Array(got.descr, want.shape, got.data)  # () and (1,) hold the same
    if got.shape != want.shape:
        return Result("mismatch", f"shape {list(got.shape)}, recorded {list(want.shape)}", bad=max(got.size, want.size))
    if got.descr != want.descr:
        return Result("mismatch", f"dtype {got.descr}, recorded {want.descr}", bad=want.size)
    if got.data == want.data:
        return Result("exact")
    if want.descr in FLOAT_BITS:
        width = 16 if logical in ("bfloat16", "bf16") else FLOAT_BITS[want.descr]
        return _compare_floats(got, want, width, ulps, rtol, atol)
    if want.descr == "|u1" and logical in FP8:
        return _compare_codes(got, want, ulps)
    return _compare_exact(got, want)


def _first(bad_index, g, w):
    return f"first at {bad_index}: tri {g!r}, recorded {w!r}"


def _compare_exact(got, want):
    gv, wv = got.values(), want.values()
    bad = [i for i, (a, b) in enumerate(zip(gv, wv)) if a != b]
    return Result("mismatch", f"{len(bad)} of {want.size} differ ({_first(bad[0], gv[bad[0]], wv[bad[0]])})", bad=len(bad))


def _compare_codes(got, want, ulps):
    gv, wv = got.values(), want.values()
    d = [abs(_ordered(a, 8) - _ordered(b, 8)) for a, b in zip(gv, wv)]
    worst_d = max(d)
    bad = [i for i, x in enumerate(d) if x > ulps]
    if not bad:
        return Result("ulp", f"up to {worst_d} ulp", max_ulp=worst_d)
    return Result("mismatch", f"{len(bad)} of {want.size} differ by more than {ulps} ulp "
                  f"({_first(bad[0], gv[bad[0]], wv[bad[0]])}, codes)", max_ulp=worst_d, bad=len(bad))


def _compare_floats(got, want, width, ulps, rtol, atol):
    try:
        import numpy as np
    except ImportError:
        np = None
    if np is not None and want.size > 4096:
        return _compare_floats_np(np, got, want, width, ulps, rtol, atol)
    gv, wv = got.values(), want.values()
    size = FLOAT_BITS[want.descr]
    code = {16: "H", 32: "I", 64: "Q"}[size]
    gb = struct.unpack("<%d%s" % (want.size, code), got.data)
    wb = struct.unpack("<%d%s" % (want.size, code), want.data)
    shift = size - width
    max_d, n_ulp_bad, n_bad, first = 0, 0, 0, None
    for i, (a, b) in enumerate(zip(gv, wv)):
        if math.isnan(a) or math.isnan(b):
            if math.isnan(a) != math.isnan(b):
                n_ulp_bad += 1
                n_bad += 1
                first = i if first is None else first
            continue
        d = abs(_ordered(gb[i] >> shift, width) - _ordered(wb[i] >> shift, width))
        max_d = max(max_d, d)
        if d > ulps:
            n_ulp_bad += 1
            if not _close(a, b, rtol, atol):
                n_bad += 1
                first = i if first is None else first
    return _float_result(n_ulp_bad, n_bad, max_d, first, gv, wv, want.size, ulps, rtol, atol)


def _close(a, b, rtol, atol):
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def _float_result(n_ulp_bad, n_bad, max_d, first, gv, wv, size, ulps, rtol, atol):
    if n_bad:
        return Result("mismatch", f"{n_bad} of {size} differ beyond rtol={rtol} atol={atol} "
                      f"({_first(first, gv[first], wv[first])}; up to {max_d} ulp)", max_ulp=max_d, bad=n_bad)
    if n_ulp_bad:
        return Result("near", f"{n_ulp_bad} of {size} differ by more than {ulps} ulp (up to {max_d}), "
                      f"all within rtol={rtol} atol={atol}", max_ulp=max_d, bad=n_ulp_bad)
    return Result("ulp", f"up to {max_d} ulp", max_ulp=max_d)


def _compare_floats_np(np, got, want, width, ulps, rtol, atol):
    size = FLOAT_BITS[want.descr]
    fdt = {16: np.float16, 32: np.float32, 64: np.float64}[size]
    udt = {16: np.uint16, 32: np.uint32, 64: np.uint64}[size]
    g = np.frombuffer(got.data, dtype=fdt)
    w = np.frombuffer(want.data, dtype=fdt)
    shift = size - width
    sign = 1 << (width - 1)

    def ordered(a):
        bits = (a.view(udt) >> udt(shift)).astype(np.uint64)
        mag = (bits & np.uint64(sign - 1)).astype(np.int64)
        return np.where(bits & np.uint64(sign), -mag, mag)

    gn, wn = np.isnan(g), np.isnan(w)
    both = ~gn & ~wn
    d = np.abs(ordered(g) - ordered(w))
    d = np.where(both, d, 0)
    nan_bad = gn != wn
    ulp_bad = (d > ulps) | nan_bad
    g64, w64 = g.astype(np.float64), w.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        inf = np.isinf(g64) | np.isinf(w64)
        close = np.where(inf, g64 == w64, np.abs(g64 - w64) <= atol + rtol * np.abs(w64))
    bad = (ulp_bad & ~close & both) | nan_bad
    n_bad = int(bad.sum())
    first = int(np.flatnonzero(bad)[0]) if n_bad else None
    max_d = int(d.max()) if d.size else 0
    gv = g.tolist() if n_bad else []
    wv = w.tolist() if n_bad else []
    return _float_result(int(ulp_bad.sum()), n_bad, max_d, first, gv, wv, want.size, ulps, rtol, atol)
