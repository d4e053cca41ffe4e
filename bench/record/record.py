#!/usr/bin/env python3
"""Record the Triton kernel launches of a Python program, for tri to replay.

    python3 bench/record/record.py --out DIR -- myprog.py ARGS...
    python3 bench/record/record.py --out DIR -- -m pytest path/test_x.py -k ...

runs the program (or module) under real Triton, in this process, with
triton.runtime.jit.JITFunction.run wrapped. Each launch saves, under
DIR/launches/ID/:

  launch.json   the kernel (file, name, qualname, where it was launched
                from), the launch line as tri takes it ("k[(4, 1)](x, y,
                n, BLOCK=128, num_warps=4)"), one entry per tensor (its
                binding name, dtype, shape, files), the grid, the options,
                and Triton's error where Triton raised instead of
                launching;
  NAME.in.npy   each tensor argument before the launch;
  NAME.out.npy  the same tensor after it (every tensor argument: an input
                that the kernel must not change is checked too).

The JITFunction level sees every way a kernel is launched: kernel[grid](...),
an @autotune'd kernel (the autotuner's final launch, with the config it
chose: its meta-parameters, num_warps and num_stages are keyword arguments
of that launch; its benchmark launches inside _bench/do_bench are not
recorded unless --record-bench), a @heuristics'd kernel (the values the
heuristics computed), and the kernels that pytest's test functions build
and patch (test_core's patch_kernel).

The kernel's file for tri: the module's own file where the launched
JITFunction is that module's global of its name. Otherwise (a kernel
defined inside a function, a kernel whose source was patched, one wrapped
by autotune or heuristics) a copy of the module is written under
DIR/kernels/ with the kernel's source, as launched, appended as a plain
@triton.jit function NAME_launched, preceded by the values of the
variables it closes over (constants, dtypes, @jit helpers): tri launches
exactly what Triton compiled, without the wrappers, with the chosen config
spelled out.

Arguments tri cannot take from a launch line are recorded as unsupported
with the reason (replay.py counts them): namedtuples, objects other than
tensors, numbers, strings, dtypes, tuples, @jit functions and
TensorDescriptor.from_tensor descriptors; tensors that overlap in memory
without being the same tensor. A non-contiguous tensor is saved as the
memory it spans (a 1-D tensor from its first element to its last), which
is what the kernel reads through its pointer and strides.

Not recorded: launches in subprocesses, and kernels launched without
JITFunction.run (torch.compile's Inductor launches its precompiled
binaries directly).

Options: --per-kernel N (default 3) keeps at most N launches of one kernel
with one specialization (source, dtypes, constexprs, options); --max-launches
(default 5000); --max-bytes (default 256 MiB of tensors per launch).
"""
import argparse
import ast
import hashlib
import inspect
import io
import json
import os
import re
import runpy
import sys
import threading
import tokenize
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_npyio():
    """npyio.py beside this file, under a private module name: the
    recorded program may have a module of its own called npyio."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("_trirecord_npyio", os.path.join(_HERE, "npyio.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


npyio = _load_npyio()

# torch dtype name -> (tri's dtype name, .npy descr of the saved file)
TORCH_DTYPES = {
    "float32": ("float32", "<f4"), "float16": ("float16", "<f2"), "float64": ("float64", "<f8"),
    "bfloat16": ("bfloat16", "<f4"),  # saved as float32, exactly
    "int8": ("int8", "|i1"), "int16": ("int16", "<i2"), "int32": ("int32", "<i4"), "int64": ("int64", "<i8"),
    "uint8": ("uint8", "|u1"), "uint16": ("uint16", "<u2"), "uint32": ("uint32", "<u4"), "uint64": ("uint64", "<u8"),
    "bool": ("bool", "|b1"),
    # fp8 as its codes, as tri's --save writes them
    "float8_e4m3fn": ("float8e4nv", "|u1"), "float8_e5m2": ("float8e5", "|u1"),
    "float8_e4m3fnuz": ("float8e4b8", "|u1"), "float8_e5m2fnuz": ("float8e5b16", "|u1"),
}

# Triton dtype name (tl.float16.name == "fp16") -> the tl attribute naming it
TL_NAMES = {
    "fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
    "fp8e4nv": "float8e4nv", "fp8e5": "float8e5", "fp8e4b15": "float8e4b15",
    "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16",
}

# A Triton dtype of a TensorWrapper (triton.reinterpret) -> the torch dtype
# its base is viewed as to save it; fp8e4b15 has none and goes as bytes.
TL_TORCH = {
    "fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
    "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2", "fp8e4b8": "float8_e4m3fnuz", "fp8e5b16": "float8_e5m2fnuz",
}

# Frames of an autotuner's benchmark: launches under them are not recorded.
BENCH_FRAMES = {"_bench", "do_bench", "do_bench_cudagraph"}


class Unreplayable(Exception):
    """A launch tri cannot be given from a launch line; the message says why."""


def float_literal(x):
    if x != x:
        return 'float("nan")'
    if x in (float("inf"), float("-inf")):
        return ('-' if x < 0 else '') + 'float("inf")'
    return repr(float(x))


def _tl():
    """triton.language, or None where Triton is not installed (the tests of
    the pure-Python parts)."""
    try:
        import triton.language as tl
    except ImportError:
        return None
    return tl


def is_plain_tuple(v):
    """A tuple, or torch.Size (x.shape), which Triton passes as a tuple; a
    namedtuple is not one."""
    return type(v) is tuple or type(v).__name__ == "Size" and type(v).__module__ == "torch"


def literal(v):
    """Python source for a plain value (no tensors), or raises Unreplayable."""
    tl = _tl()
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, int):
        return repr(int(v))
    if isinstance(v, float):
        return float_literal(v)
    if tl is not None and isinstance(v, tl.constexpr):
        # Triton's launcher passes a tl.constexpr argument as a compile-time
        # value to any parameter, also inside a tuple; tri reads the marker.
        return "tl.constexpr(" + literal(v.value) + ")"
    if tl is not None and isinstance(v, tl.dtype):
        return "tl." + TL_NAMES.get(v.name, v.name)
    if is_plain_tuple(v) or type(v) is list:
        inner = ", ".join(literal(x) for x in v)
        return "[" + inner + "]" if type(v) is list else "(" + inner + ("," if len(v) == 1 else "") + ")"
    if type(v).__module__ == "numpy" and hasattr(v, "item"):
        return literal(v.item())  # NumPy scalars
    raise Unreplayable(f"a value of type {type(v).__module__}.{type(v).__qualname__}")


def module_root(mod, path):
    """The folder a module's dotted name is relative to (its sys.path entry)."""
    name = getattr(mod, "__name__", "") or ""
    parts = name.split(".")
    d = os.path.dirname(os.path.abspath(path))
    if name in ("", "__main__") or os.path.basename(path) == "__init__.py":
        parts = parts[:-1] if os.path.basename(path) == "__init__.py" else []
    else:
        parts = parts[:-1]
    for p in reversed(parts):
        if os.path.basename(d) != p:
            return os.path.dirname(os.path.abspath(path))
        d = os.path.dirname(d)
    return d


def absolute_imports(text, package):
    """Rewrites relative imports (from .x import y) of a module of package
    as absolute ones, for a copy of the module kept elsewhere."""
    if not package:
        return text
    parts = package.split(".")

    def repl(m):
        level, rest = len(m.group(2)), m.group(3)
        base = parts[:len(parts) - (level - 1)] if level > 1 else parts
        return m.group(1) + "from " + ".".join(base + ([rest] if rest else [])) + " import"
    return re.sub(r"^(\s*)from\s+(\.+)([\w.]*)\s+import", repl, text, flags=re.M)


def rename_names(src, names):
    """src with each NAME token in names (not an attribute, not a keyword
    argument) renamed to names[NAME]."""
    out, toks = [], list(tokenize.generate_tokens(io.StringIO(src).readline))
    for i, t in enumerate(toks):
        s = t.string
        if t.type == tokenize.NAME and s in names:
            prev = toks[i - 1].string if i else ""
            nxt = toks[i + 1].string if i + 1 < len(toks) else ""
            if prev != "." and nxt != "=":
                s = names[s]
        out.append((t.type, s))
    return tokenize.untokenize(out)


def annotation_text(a):
    """A parameter annotation as text tri reads as Triton does, or None for
    one Triton ignores: strings as they are, dtypes by their name,
    tl.constexpr, and the builtins int, float and bool."""
    if isinstance(a, str):
        return repr(a)
    if a in (int, float, bool):
        return a.__name__
    if getattr(a, "__name__", None) == "constexpr" and "triton" in getattr(a, "__module__", ""):
        return "tl.constexpr"
    name = getattr(a, "name", None)
    if isinstance(name, str) and "triton" in type(a).__module__:
        return repr(name)
    return None


def add_annotations(src, fn):
    """src (a def from its first line) with the annotations fn carries but
    its source does not write: a decorator that sets fn.__annotations__
    (test_annotations.py's annotated_function) changes the types Triton
    gives the parameters."""
    anns = getattr(fn, "__annotations__", None) or {}
    if not anns:
        return src
    try:
        fd = ast.parse(src).body[0]
    except SyntaxError:
        return src
    lines = src.splitlines(keepends=True)
    args = fd.args.posonlyargs + fd.args.args + fd.args.kwonlyargs
    for a in sorted(args, key=lambda a: (a.lineno, a.col_offset), reverse=True):
        text = annotation_text(anns[a.arg]) if a.arg in anns and a.annotation is None else None
        if text is None:
            continue
        line = lines[a.lineno - 1].encode()  # ast's columns count UTF-8 bytes
        end = a.col_offset + len(a.arg.encode())
        lines[a.lineno - 1] = (line[:end] + b": " + text.encode() + line[end:]).decode()
    return "".join(lines)


def jit_source(jf):
    """The source of a JITFunction as Triton compiles it (patched sources
    included), from its def line."""
    src = getattr(jf, "src", None)
    if src is None:
        import textwrap
        src = textwrap.dedent(inspect.getsource(jf.fn))
    m = re.search(r"^def\s+\w+\s*\(", src, re.M)
    return src[m.start():] if m else src


def file_source(jf):
    """The def of jf as written in its file, dedented."""
    import textwrap
    try:
        src = textwrap.dedent("".join(inspect.getsourcelines(jf.fn)[0]))
    except (OSError, TypeError):
        return None
    m = re.search(r"^def\s+\w+\s*\(", src, re.M)
    return src[m.start():] if m else src


def jit_decorator(jf):
    kw = []
    for attr in ("do_not_specialize", "do_not_specialize_on_alignment"):
        v = getattr(jf, attr, None)
        if v:
            kw.append(f"{attr}={literal(list(v))}")
    if getattr(jf, "noinline", None):
        kw.append("noinline=True")
    if getattr(jf, "debug", None):
        kw.append("debug=True")
    return "@triton.jit" + ("(" + ", ".join(kw) + ")" if kw else "")


class Recorder:
    """Saves launches under out; one per call of launch()."""

    def __init__(self, out, per_kernel=3, max_launches=5000, max_bytes=256 << 20, record_bench=False):
        self.out = os.path.abspath(out)
        self.per_kernel, self.max_launches, self.max_bytes = per_kernel, max_launches, max_bytes
        self.record_bench = record_bench
        self.lock = threading.Lock()
        self.local = threading.local()
        self.count = 0
        self.seen = {}
        self.files = {}  # synthesized kernel files by content key
        os.makedirs(os.path.join(self.out, "launches"), exist_ok=True)
        os.makedirs(os.path.join(self.out, "kernels"), exist_ok=True)

    # ---- what is recorded

    def skip(self):
        if getattr(self.local, "busy", False) or self.count >= self.max_launches:
            return True
        if self.record_bench:
            return False
        f = sys._getframe(2)
        while f is not None:
            if f.f_code.co_name in BENCH_FRAMES:
                return True
            f = f.f_back
        return False

    def launch(self, orig, jf, args, grid, warmup, kwargs):
        """Runs orig (JITFunction.run) for one launch and records it."""
        self.local.busy = True
        try:
            rec = None
            try:
                rec = self.prepare(jf, args, grid, kwargs)
            except Unreplayable as e:
                rec = self.partial(jf, f"{e}")
            except Exception as e:  # the recorder's own failure: note it, launch anyway
                rec = self.partial(jf, f"recorder error: {type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}")
            if rec is None:
                return orig(jf, *args, grid=grid, warmup=warmup, **kwargs)
            g = tuple(rec["grid"]) if rec.get("grid") else grid
            try:
                ret = orig(jf, *args, grid=g, warmup=warmup, **kwargs)
            except Exception as e:
                rec["triton_error"] = f"{type(e).__name__}: {str(e).strip()}"[:2000]
                self.finish(rec, after=False)
                raise
            self.finish(rec, after=True)
            return ret
        finally:
            self.local.busy = False

    def specialization(self, jf, src, args, kwargs):
        parts = [jf.fn.__code__.co_filename, jf.fn.__qualname__, src]
        for v in list(args) + [kwargs[k] for k in sorted(kwargs)]:
            if hasattr(v, "data_ptr"):
                # triton.reinterpret's TensorWrapper has no dim(): its base's shape
                shape = v.shape if hasattr(v, "shape") else getattr(v, "base", v).shape
                parts.append(f"T{v.dtype}{len(shape)}")
            elif isinstance(v, (int, float, bool)) and not isinstance(v, bool):
                parts.append(type(v).__name__ + ("1" if v == 1 else "16" if isinstance(v, int) and v % 16 == 0 else ""))
            else:
                parts.append(repr(v)[:200])
        parts += [f"{k}" for k in sorted(kwargs)]
        return hashlib.sha256("\x00".join(parts).encode()).hexdigest()

    def new_id(self):
        with self.lock:
            self.count += 1
            return f"{os.getpid()}-{self.count:06d}"

    def partial(self, jf, why):
        """A record of a launch that cannot be replayed."""
        key = hashlib.sha256(f"{jf.fn.__code__.co_filename}\x00{jf.fn.__qualname__}\x00{why[:80]}".encode()).hexdigest()
        with self.lock:
            n = self.seen.get(key, 0)
            if n >= self.per_kernel:
                return None
            self.seen[key] = n + 1
        lid = self.new_id()
        return {"id": lid, "dir": os.path.join(self.out, "launches", lid), "kernel": jf.fn.__name__,
                "qualname": jf.fn.__qualname__, "source_file": jf.fn.__code__.co_filename,
                "site": self.site(), "test": self.test(), "unsupported": why, "tensors": {}, "_live": {}}

    def test(self):
        t = os.environ.get("PYTEST_CURRENT_TEST", "")
        return t.rsplit(" (", 1)[0]

    def site(self):
        """file:line of the user's code that launched the kernel."""
        f = sys._getframe(1)
        triton_dir = os.path.dirname(__import__("triton").__file__)
        while f is not None:
            fn = f.f_code.co_filename
            if not fn.startswith(triton_dir) and os.path.abspath(fn) != os.path.abspath(__file__):
                return f"{fn}:{f.f_lineno}"
            f = f.f_back
        return ""

    def prepare(self, jf, args, grid, kwargs):
        import torch
        src = jit_source(jf)
        key = self.specialization(jf, src, args, kwargs)
        with self.lock:
            n = self.seen.get(key, 0)
            if n >= self.per_kernel:
                return None
            self.seen[key] = n + 1
        sig = inspect.signature(jf.fn)
        params = list(sig.parameters)
        options = {k: v for k, v in kwargs.items() if k not in sig.parameters}
        call_kw = {k: v for k, v in kwargs.items() if k in sig.parameters}
        full = sig.bind(*args, **call_kw)
        full.apply_defaults()
        if callable(grid):
            grid = grid(dict(full.arguments))
        grid = [int(g) for g in grid]
        if not 1 <= len(grid) <= 3:
            raise Unreplayable(f"a grid of {len(grid)} dimensions")

        lid = self.new_id()
        rec = {"id": lid, "dir": os.path.join(self.out, "launches", lid), "kernel": jf.fn.__name__,
               "qualname": jf.fn.__qualname__, "source_file": jf.fn.__code__.co_filename,
               "site": self.site(), "test": self.test(), "grid": grid, "tensors": {}, "_live": {}}
        debug = bool(options.pop("debug", False) or getattr(jf, "debug", False))
        try:
            from triton import knobs
            debug = debug or bool(knobs.runtime.debug)
        except Exception:
            pass
        rec["debug"] = debug
        rec["options"] = {k: repr(v) for k, v in options.items()}
        ctx = _Bindings(self, rec, torch)
        # as the caller wrote it: positional arguments, then keywords
        pos = [ctx.emit(v, params[i] if i < len(params) else f"arg{i}") for i, v in enumerate(args)]
        kws = [f"{k}={ctx.emit(v, k)}" for k, v in call_kw.items()]
        opts = [f"{k}={literal(v)}" for k, v in options.items()]
        ctx.check_overlap()
        path, name, root = self.kernel_file(jf, src, ctx)
        rec.update(kernel_file=path, launch_name=name, root=root)
        rec["launch"] = f"{name}[{literal(tuple(grid))}](" + ", ".join(pos + kws + opts) + ")"
        total = sum(t.numel() * t.element_size() for t in rec["_live"].values())
        if total > self.max_bytes:
            raise Unreplayable(f"{total} bytes of tensors, more than --max-bytes")
        os.makedirs(rec["dir"], exist_ok=True)
        for name_, t in rec["_live"].items():
            self.save(rec, name_, t, "in")
        return rec

    def save(self, rec, name, t, when):
        info = rec["tensors"][name]
        data = tensor_bytes(t, info)
        fname = f"{name}.{when}.npy"
        npyio.write(os.path.join(rec["dir"], fname), info["descr"], info["saved_shape"], data)
        info[when] = fname

    def finish(self, rec, after):
        live = rec.pop("_live", {})
        if after and live:
            import torch
            try:
                torch.cuda.synchronize()
                for name, t in live.items():
                    self.save(rec, name, t, "out")
            except Exception as e:  # a fault in the kernel, or the disk: the program goes on
                rec["unsupported"] = f"recorder error after the launch: {type(e).__name__}: {e}"
        os.makedirs(rec["dir"], exist_ok=True)
        d = rec.pop("dir")
        tmp = os.path.join(d, "launch.json.tmp")
        with open(tmp, "w") as f:
            json.dump(rec, f, indent=1)
        os.replace(tmp, os.path.join(d, "launch.json"))

    # ---- the kernel's file for tri

    def kernel_file(self, jf, src, ctx):
        fn = jf.fn
        mod = sys.modules.get(fn.__module__)
        path = inspect.getsourcefile(fn) or fn.__code__.co_filename
        if not path or not os.path.exists(path):
            raise Unreplayable(f"the kernel's source file {path!r} is not on disk")
        root = module_root(mod, path)
        nonlocals = inspect.getclosurevars(fn).nonlocals
        plain = (mod is not None and getattr(mod, fn.__name__, None) is jf and fn.__qualname__ == fn.__name__
                 and not nonlocals and file_source(jf) == src and add_annotations(src, fn) == src)
        if plain:
            return os.path.abspath(path), fn.__name__, root
        return self.synthesize(jf, src, mod, path, nonlocals), fn.__name__ + "_launched", root

    def synthesize(self, jf, src, mod, path, nonlocals):
        import triton
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = absolute_imports(text, getattr(mod, "__package__", None))
        mod_globals = vars(mod) if mod is not None else {}
        lines, renames, done = [], {}, {}
        # The closed-over values of the kernel and, in turn, of the @jit
        # helpers it closes over, each bound once at module level.
        work = sorted(nonlocals.items())
        while work:
            n, v = work.pop(0)
            if n in done:
                if done[n] is not v:
                    raise Unreplayable(f"two closed-over values named {n}")
                continue
            done[n] = v
            if mod_globals.get(n) is v:
                continue
            if n in mod_globals:
                renames[n] = n + "_launched"
            if isinstance(v, triton.runtime.jit.JITFunction):
                helper = re.sub(r"^def\s+\w+", "def " + renames.get(n, n), jit_source(v), count=1)
                lines.append(jit_decorator(v) + "\n" + helper)
                work += sorted(inspect.getclosurevars(v.fn).nonlocals.items())
            elif isinstance(v, type(sys)):
                lines.insert(0, f"import {v.__name__} as {renames.get(n, n)}")
            else:
                lines.insert(0, f"{renames.get(n, n)} = {literal(v)}")
        if renames:
            lines = [rename_names(l, renames) if l.lstrip().startswith("@") else l for l in lines]
        body = rename_names(src, renames) if renames else src
        body = re.sub(r"^def\s+\w+", "def " + jf.fn.__name__ + "_launched", body, count=1)
        body = add_annotations(body, jf.fn)
        head = []
        if not re.search(r"^import triton\s*$", text, re.M):
            head.append("import triton")
        if "tl." in body and not re.search(r"^import triton\.language as tl\s*$", text, re.M):
            head.append("import triton.language as tl")
        where = f"{os.path.basename(path)}:{jf.fn.__code__.co_firstlineno}"
        appended = (f"\n\n# The kernel {jf.fn.__qualname__} ({where}) as Triton compiled it, appended by\n"
                    f"# bench/record/record.py, with the values it closes over.\n"
                    + "".join(h + "\n" for h in head)
                    + "".join(l.rstrip("\n") + "\n\n\n" for l in lines)
                    + jit_decorator(jf) + "\n" + body.rstrip("\n") + "\n")
        out = text.rstrip("\n") + "\n" + appended
        h = hashlib.sha256(out.encode()).hexdigest()[:10]
        with self.lock:
            if h in self.files:
                return self.files[h]
        base = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
        fpath = os.path.join(self.out, "kernels", f"{base}__{jf.fn.__name__}__{h}.py")
        with open(fpath, "w", encoding="utf-8") as f:
            f.write(out)
        with self.lock:
            self.files[h] = fpath
        return fpath


def tensor_meta(t, torch):
    """(tri dtype, descr, logical torch dtype name) of a tensor."""
    name = str(t.dtype).replace("torch.", "")
    if name not in TORCH_DTYPES:
        raise Unreplayable(f"a tensor of dtype {name}")
    return TORCH_DTYPES[name]


def span(t):
    if t.numel() == 0:
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))


def tensor_bytes(t, info):
    """The bytes of t as saved: its elements in C order where it is
    contiguous, else the memory it spans; bf16 as float32, fp8 as codes."""
    import torch
    t = t.detach()
    if not info["contiguous"]:
        t = t.as_strided((span(t),), (1,))
    if info["dtype"] == "bfloat16":
        t = t.float()
    flat = t.contiguous().reshape(-1)
    if flat.dtype == torch.bool:
        flat = flat.to(torch.uint8)
    elif flat.element_size() == 1 and flat.dtype != torch.uint8:
        flat = flat.view(torch.uint8)
    raw = flat.view(torch.uint8) if flat.dtype != torch.uint8 else flat
    return raw.cpu().numpy().tobytes()


class _Bindings:
    """Names the tensors of one launch and writes its arguments as source."""

    def __init__(self, rec_owner, rec, torch):
        self.owner, self.rec, self.torch = rec_owner, rec, torch
        self.by_key = {}

    def emit(self, v, name):
        import triton
        torch = self.torch
        if isinstance(v, torch.Tensor):
            return self.tensor(v, name, None)
        if hasattr(v, "base") and hasattr(v, "dtype") and hasattr(v, "data_ptr") and not isinstance(v, torch.Tensor):
            # triton.reinterpret's TensorWrapper: the base's memory as another dtype
            return self.wrapper(v, name)
        if isinstance(v, triton.runtime.jit.JITFunction):
            mod = sys.modules.get(v.fn.__module__)
            if mod is not None and getattr(mod, v.fn.__name__, None) is v:
                return v.fn.__name__
            raise Unreplayable(f"argument {name}: a @jit function that is not a module global ({v.fn.__qualname__})")
        if type(v).__name__ == "TensorDescriptor" and hasattr(v, "base") and hasattr(v, "block_shape"):
            return self.descriptor(v, name)
        if isinstance(v, tuple) and hasattr(v, "_fields"):
            raise Unreplayable(f"argument {name}: a namedtuple ({type(v).__name__})")
        if (is_plain_tuple(v) or type(v) is list) and any(hasattr(x, "data_ptr") or isinstance(x, tuple) for x in v):
            inner = [self.emit(x, f"{name}_{i}") for i, x in enumerate(v)]
            if type(v) is list:
                return "[" + ", ".join(inner) + "]"
            return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
        try:
            return literal(v)
        except Unreplayable as e:
            raise Unreplayable(f"argument {name}: {e}")

    def bind(self, t, name, dtype, descr, logical_key):
        contiguous = t.is_contiguous()
        key = (t.data_ptr(), str(t.dtype), tuple(t.shape), tuple(t.stride()), logical_key)
        if key in self.by_key:
            return self.by_key[key]
        base = re.sub(r"\W", "_", name)
        if base in ("tl", "triton", "torch", "float", "int", "load") or base == self.rec["kernel"]:
            base += "_"
        uniq, i = base, 1
        while uniq in self.rec["tensors"]:
            i += 1
            uniq = f"{base}{i}"
        self.by_key[key] = uniq
        saved = list(t.shape) if contiguous else [span(t)]
        self.rec["tensors"][uniq] = {"dtype": dtype, "descr": descr, "shape": list(t.shape),
                                     "stride": list(t.stride()), "contiguous": contiguous, "saved_shape": saved}
        self.rec["_live"][uniq] = t
        return uniq

    def tensor(self, t, name, _):
        if not t.is_cuda:
            raise Unreplayable(f"argument {name}: a tensor on {t.device}")
        dtype, descr = tensor_meta(t, self.torch)
        return self.bind(t, name, dtype, descr, None)

    def wrapper(self, w, name):
        tl_name = getattr(w.dtype, "name", str(w.dtype))
        base = w.base
        tname = TL_TORCH.get(tl_name, tl_name if tl_name.startswith(("int", "uint")) else None)
        if tname is not None and hasattr(self.torch, tname):
            t = base.view(getattr(self.torch, tname))
            dtype, descr = TORCH_DTYPES[tname]
            return self.bind(t, name, dtype, descr, tl_name)
        if tl_name == "fp8e4b15":
            return self.bind(base.view(self.torch.uint8), name, "float8e4b15", "|u1", tl_name)
        raise Unreplayable(f"argument {name}: a tensor reinterpreted as {tl_name}")

    def descriptor(self, d, name):
        base = d.base
        if list(d.shape) != list(base.shape) or list(d.strides) != list(base.stride()):
            raise Unreplayable(f"argument {name}: a TensorDescriptor whose shape or strides are not its tensor's")
        t = self.emit(base, name + "_base")
        pad = getattr(d, "padding", "zero")
        extra = f", padding={pad!r}" if pad not in (None, "zero") else ""
        return f"TensorDescriptor.from_tensor({t}, {literal(list(d.block_shape))}{extra})"

    def check_overlap(self):
        spans = []
        for n, t in self.rec["_live"].items():
            if t.numel():
                lo = t.data_ptr()
                spans.append((lo, lo + span(t) * t.element_size(), n))
        spans.sort()
        for (lo1, hi1, n1), (lo2, hi2, n2) in zip(spans, spans[1:]):
            if lo2 < hi1:
                raise Unreplayable(f"tensors {n1} and {n2} overlap in memory (views of one tensor)")


def install(recorder):
    """Wraps JITFunction.run so that each launch goes through recorder."""
    from triton.runtime.jit import JITFunction
    orig = JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        if warmup or recorder.skip():
            return orig(self, *args, grid=grid, warmup=warmup, **kwargs)
        return recorder.launch(orig, self, args, grid, warmup, kwargs)

    run.__wrapped__ = orig
    JITFunction.run = run
    return orig


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print("usage: record.py --out DIR [options] -- PROGRAM.py ARGS... | -m MODULE ARGS...", file=sys.stderr)
        return 2
    i = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-kernel", type=int, default=3)
    ap.add_argument("--max-launches", type=int, default=5000)
    ap.add_argument("--max-bytes", type=int, default=256 << 20)
    ap.add_argument("--record-bench", action="store_true", help="also record the autotuner's benchmark launches")
    args = ap.parse_args(argv[:i])
    target = argv[i + 1:]
    if not target:
        ap.error("nothing to run after --")
    rec = Recorder(args.out, args.per_kernel, args.max_launches, args.max_bytes, args.record_bench)
    install(rec)
    code = 0
    # sys.path as `python3 PROGRAM` or `python3 -m MODULE` would have it,
    # without this script's folder (its modules would shadow the program's)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    try:
        if target[0] == "-m":
            sys.argv = [target[1]] + target[2:]
            sys.path.insert(0, os.getcwd())
            runpy.run_module(target[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = target
            sys.path.insert(0, os.path.dirname(os.path.abspath(target[0])))
            runpy.run_path(target[0], run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    n = len([d for d in os.listdir(os.path.join(rec.out, "launches"))])
    print(f"record.py: {n} launches recorded under {rec.out}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
