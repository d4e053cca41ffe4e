"""Tests of the replayer (and the recorder's pure-Python parts) without a
GPU, torch or Triton: a fake recording replayed through a stand-in for tri
(testdata/fake_tri.py). Run: python3 -m unittest discover -s bench/record
(record_test.go runs it under go test)."""
import ast
import csv
import json
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import npyio  # noqa: E402
import record  # noqa: E402
import replay  # noqa: E402
import select_tests  # noqa: E402


def f32(vals):
    return struct.pack("<%df" % len(vals), *vals)


class NpyTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def roundtrip(self, descr, shape, data):
        p = os.path.join(self.dir, "a.npy")
        npyio.write(p, descr, shape, data)
        return npyio.read(p)

    def test_roundtrip(self):
        a = self.roundtrip("<f4", (2, 3), f32([1, 2, 3, 4, 5, 6]))
        self.assertEqual(a.shape, (2, 3))
        self.assertEqual(a.values(), [1, 2, 3, 4, 5, 6])
        self.assertEqual(self.roundtrip("<i8", (), struct.pack("<q", -7)).values(), [-7])

    def test_compare_kinds(self):
        want = npyio.Array("<f4", (3,), f32([1.0, 2.0, float("nan")]))
        self.assertEqual(npyio.compare(want, want).kind, "exact")
        # one ulp up on the second element
        b = bytearray(want.data)
        b[4:8] = struct.pack("<I", struct.unpack("<I", b[4:8])[0] + 1)
        self.assertEqual(npyio.compare(npyio.Array("<f4", (3,), b), want).kind, "ulp")
        near = npyio.Array("<f4", (3,), f32([1.0001, 2.0, float("nan")]))
        r = npyio.compare(near, want)
        self.assertEqual(r.kind, "near", r.detail)
        bad = npyio.Array("<f4", (3,), f32([1.5, 2.0, float("nan")]))
        r = npyio.compare(bad, want)
        self.assertEqual(r.kind, "mismatch")
        self.assertIn("first at 0", r.detail)
        nan = npyio.Array("<f4", (3,), f32([1.0, 2.0, 3.0]))
        self.assertEqual(npyio.compare(nan, want).kind, "mismatch", "a NaN where Triton has a number")
        self.assertEqual(npyio.compare(npyio.Array("<f4", (1, 3), want.data), want).kind, "mismatch")

    def test_bf16_counts_its_own_ulps(self):
        want = npyio.Array("<f4", (1,), f32([1.0]))
        bits = struct.unpack("<I", want.data)[0] + (1 << 16)  # one bf16 ulp
        got = npyio.Array("<f4", (1,), struct.pack("<I", bits))
        self.assertEqual(npyio.compare(got, want, "bfloat16").max_ulp, 1)
        self.assertEqual(npyio.compare(got, want, "float32").max_ulp, 1 << 16)

    def test_ints_are_exact(self):
        want = npyio.Array("<i4", (2,), struct.pack("<2i", 5, 6))
        got = npyio.Array("<i4", (2,), struct.pack("<2i", 5, 7))
        r = npyio.compare(got, want)
        self.assertEqual(r.kind, "mismatch")
        self.assertIn("tri 7, recorded 6", r.detail)


class RecordPartsTest(unittest.TestCase):
    def test_literal(self):
        self.assertEqual(record.literal(3), "3")
        self.assertEqual(record.literal(True), "True")
        self.assertEqual(record.literal(float("nan")), 'float("nan")')
        self.assertEqual(record.literal(-float("inf")), '-float("inf")')
        self.assertEqual(record.literal((1,)), "(1,)")
        self.assertEqual(record.literal("ieee"), "'ieee'")
        # x.shape (torch.Size) is passed to a kernel as a tuple
        size = type("Size", (tuple,), {"__module__": "torch"})
        self.assertEqual(record.literal(size((8, 8))), "(8, 8)")
        with self.assertRaises(record.Unreplayable):
            record.literal(object())

    def test_absolute_imports(self):
        text = "from .a import b\nfrom ..c.d import e\nimport os\n"
        self.assertEqual(record.absolute_imports(text, "pkg.sub"),
                         "from pkg.sub.a import b\nfrom pkg.c.d import e\nimport os\n")

    def test_module_root(self):
        m = types.SimpleNamespace(__name__="pkg.sub.mod")
        self.assertEqual(record.module_root(m, "/x/pkg/sub/mod.py"), "/x")
        m = types.SimpleNamespace(__name__="test_core")
        self.assertEqual(record.module_root(m, "/t/lang/test_core.py"), "/t/lang")
        m = types.SimpleNamespace(__name__="__main__")
        self.assertEqual(record.module_root(m, "/p/prog.py"), "/p")

    def test_add_annotations(self):
        # A decorator that sets __annotations__ (test_annotations.py's
        # annotated_function) gives types the def does not write.
        class Dtype:
            name = "fp16"
        Dtype.__module__ = "triton.language.core"

        def k(X, v, val, n, m: "fp32"):
            pass
        k.__annotations__ = {"X": list, "v": "tl.uint8", "val": Dtype(), "n": int, "m": "fp32"}
        src = "def k_launched(X, v,\n        val, n, m: 'fp32'):\n    pass\n"
        self.assertEqual(record.add_annotations(src, k),
                         "def k_launched(X, v: 'tl.uint8',\n        val: 'fp16', n: int, m: 'fp32'):\n    pass\n")
        self.assertEqual(record.add_annotations(src, lambda: None), src)

    def test_rename_names(self):
        src = "def k(X):\n    y = N + 1\n    z = f(N=N)\n    w = a.N\n"
        tree = ast.parse(record.rename_names(src, {"N": "N_launched"}))
        names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})
        self.assertEqual(names, ["N_launched", "a", "f", "w", "y", "z"])
        self.assertEqual([k.arg for k in ast.walk(tree) if isinstance(k, ast.keyword)], ["N"], "keywords keep their names")
        self.assertEqual([a.attr for a in ast.walk(tree) if isinstance(a, ast.Attribute)], ["N"], "attributes too")


class RecorderTest(unittest.TestCase):
    """record.py on testdata/recprog/prog.py under the stand-in torch and
    Triton (testdata/fakemods): what it writes for a plain, an autotuned, a
    heuristics-wrapped, a nested, a patched and a rejected kernel, a view
    and a tensor passed twice; with $TRI set (record_test.go builds it), the
    replay of the recording through tri's interpreter, which must match the
    values the stand-in's Python implementations computed."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.rec = os.path.join(cls.dir, "rec")
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "testdata", "fakemods"), PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run([sys.executable, os.path.join(HERE, "record.py"), "--out", cls.rec, "--",
                            os.path.join(HERE, "testdata", "recprog", "prog.py")], env=env, capture_output=True, text=True)
        cls.output = p.stdout + p.stderr
        cls.launches = {}
        for r in replay.load_launches(cls.rec):
            cls.launches[r["kernel"]] = r

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_launch_lines(self):
        got = sorted(r["launch"] for r in self.launches.values())
        self.assertEqual(got, sorted([
            "add_kernel[(1,)](x, y, out, 100, BLOCK=128)",
            # the autotuner's choice (the stand-in's: the last config), not its benchmark launches
            "scale_kernel_launched[(1,)](x, out, 0.5, 100, BLOCK=256, num_warps=4, num_stages=3)",
            "relu_kernel_launched[(1,)](x, out, 100, BLOCK=128, EVEN=False)",
            "transpose_copy[(1,)](x, out, 1, 8, M=8, N=4)",
            "inplace_mul[(1,)](x, x, 64, BLOCK=64)",
            "plus_launched[(1,)](x, out, N=8)",
            "tmpl_launched[(1,)](x, out, N=8)",
            "rejected[(1,)](x, BLOCK=16)",
        ]), self.output)

    def test_files_and_tensors(self):
        prog = os.path.join(HERE, "testdata", "recprog", "prog.py")
        self.assertEqual(self.launches["add_kernel"]["kernel_file"], prog, "a module-level kernel runs from its file")
        self.assertIn(os.sep + "kernels" + os.sep, self.launches["scale_kernel"]["kernel_file"])
        with open(self.launches["plus"]["kernel_file"]) as f:
            text = f.read()
        for want in ("OFFSET = 3\n", "def shift(v):", "def plus_launched(x, out, N: tl.constexpr):"):
            self.assertIn(want, text, "a nested kernel's closure, its helper's closure included")
        with open(self.launches["tmpl"]["kernel_file"]) as f:
            self.assertIn("tl.store(out + offs, v * v)", f.read(), "the patched source")
        t = self.launches["transpose_copy"]["tensors"]["x"]
        self.assertEqual((t["contiguous"], t["shape"], t["saved_shape"]), (False, [8, 4], [32]))
        self.assertEqual(list(self.launches["inplace_mul"]["tensors"]), ["x"])
        out = npyio.read(os.path.join(self.rec, "launches", self.launches["inplace_mul"]["id"], "x.out.npy"))
        self.assertEqual(out.values()[:3], [0.0, 2.0, 4.0])
        self.assertIn("no fake implementation", self.launches["rejected"]["triton_error"])
        self.assertNotIn("out", self.launches["rejected"]["tensors"]["x"])

    def test_replay_through_tri(self):
        tri = os.environ.get("TRI")
        if not tri:
            self.skipTest("set TRI to a tri binary")
        with open(os.devnull, "w") as f:
            old, sys.stdout = sys.stdout, f
            try:
                replay.main([self.rec, "--tri", tri, "--no-gpu"])
            finally:
                sys.stdout = old
        with open(os.path.join(self.rec, "replay.csv")) as f:
            got = {r["kernel"]: (r["status"], r["detail"]) for r in csv.DictReader(f)}
        for k, (status, detail) in got.items():
            want = "both-reject" if k == "rejected" else "match"
            self.assertEqual(status, want, f"{k}: {detail}")
        self.assertEqual(len(got), 8)


class SelectTest(unittest.TestCase):
    def test_rounds(self):
        ids = [f"t.py::test_a[{i}]" for i in range(10)] + ["t.py::test_b", "t.py::test_c[x]", "t.py::test_c[y]"]
        got = select_tests.rounds(ids, 2, exclude="test_c\\[y")
        self.assertEqual(got, ["t.py::test_a[0]", "t.py::test_b", "t.py::test_c[x]", "t.py::test_a[5]"])


class ReplayTest(unittest.TestCase):
    """A recording of six launches, one per outcome, replayed through the
    fake tri: statuses, the summary's counts and the CSV."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.tri = os.path.join(self.dir, "tri")
        shutil.copy(os.path.join(HERE, "testdata", "fake_tri.py"), self.tri)
        with open(self.tri) as f:
            text = f.read().replace('os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")', repr(HERE))
        with open(self.tri, "w") as f:
            f.write(text)
        os.chmod(self.tri, os.stat(self.tri).st_mode | stat.S_IEXEC)
        self.rec = os.path.join(self.dir, "rec")
        self.add("1-match", "match")
        self.add("2-perturb", "perturb")
        self.add("3-near", "near")
        self.add("4-fail", "fail")
        self.add("5-both", "fail", triton_error="CompilationError: at 3:5: boom")
        self.add("6-accepts", "match", triton_error="ValueError: Conflicting meta-parameters")
        self.add("7-unsupported", "match", unsupported="argument cfg: a namedtuple (Cfg)")
        self.add("8-interp", "fail-interp")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def add(self, lid, mode, triton_error=None, unsupported=None):
        d = os.path.join(self.rec, "launches", lid)
        os.makedirs(d)
        kfile = os.path.join(d, "k.py")
        with open(kfile, "w") as f:
            f.write(f"# fake: {mode}\nimport triton\n\n@triton.jit\ndef k(x, y): pass\n")
        npyio.write(os.path.join(d, "x.in.npy"), "<f4", (4,), f32([1, 2, 3, 4]))
        npyio.write(os.path.join(d, "x.out.npy"), "<f4", (4,), f32([1, 2, 3, 4]))
        npyio.write(os.path.join(d, "y.in.npy"), "<i4", (2,), struct.pack("<2i", 0, 0))
        npyio.write(os.path.join(d, "y.out.npy"), "<i4", (2,), struct.pack("<2i", 7, 8))
        rec = {"id": lid, "kernel": "k", "qualname": "test_x.<locals>.k", "kernel_file": kfile,
               "launch": "k[(1,)](x, y)", "test": f"test_x.py::test_{mode}", "site": "", "root": d, "grid": [1],
               "tensors": {"x": {"dtype": "float32", "descr": "<f4", "in": "x.in.npy", "out": "x.out.npy"},
                           "y": {"dtype": "int32", "descr": "<i4", "in": "y.in.npy", "out": "y.out.npy"}}}
        if triton_error:
            rec["triton_error"] = triton_error
            for t in rec["tensors"].values():
                del t["out"]
        if unsupported:
            rec["unsupported"] = unsupported
        with open(os.path.join(d, "launch.json"), "w") as f:
            json.dump(rec, f)

    def test_replay(self):
        out = os.path.join(self.dir, "out.txt")
        with open(out, "w") as f:
            old, sys.stdout = sys.stdout, f
            try:
                code = replay.main([self.rec, "--tri", self.tri, "--jobs", "4"])
            finally:
                sys.stdout = old
        self.assertEqual(code, 1, "a mismatch and a tri error make the exit status 1")
        with open(os.path.join(self.rec, "replay.csv")) as f:
            rows = {(r["id"], r["mode"]): r for r in csv.DictReader(f)}
        want = {"1-match": "match", "2-perturb": "mismatch", "3-near": "near", "4-fail": "tri-error",
                "5-both": "both-reject", "6-accepts": "tri-accepts", "7-unsupported": "unsupported"}
        for lid, status in want.items():
            for mode in ("gpu", "interp"):
                self.assertEqual(rows[(lid, mode)]["status"], status, (lid, mode, rows[(lid, mode)]["detail"]))
        self.assertEqual(rows[("8-interp", "gpu")]["status"], "match")
        self.assertEqual(rows[("8-interp", "interp")]["status"], "tri-error")
        self.assertIn("x: 1 of 4 differ", rows[("2-perturb", "gpu")]["detail"])
        self.assertIn("the fake refuses this kernel", rows[("4-fail", "gpu")]["detail"])
        self.assertIn("--interpret", rows[("2-perturb", "interp")]["command"])
        self.assertIn("y=load(", rows[("2-perturb", "gpu")]["command"])
        with open(out) as f:
            text = f.read()
        self.assertIn("recorded launches: 8", text)
        # gpu: compiled = match 2 (1, 8) + near + mismatch + tri-error = 5; built 4
        self.assertIn("Triton compiled and ran         5", text)
        self.assertIn("tri builds and runs           4 (80.0%)", text)
        self.assertIn("matches (of those built)      2 (50.0%)", text)
        self.assertIn("(tri rejects too: 1, tri runs it: 1)", text)
        self.assertIn("mismatch (2):", text)
        self.assertIn(rows[("2-perturb", "gpu")]["command"], text, "a mismatch lists its reproducer")
        self.assertTrue(os.path.exists(os.path.join(self.rec, "summary.txt")))

    def test_budget(self):
        with open(os.devnull, "w") as f:
            old, sys.stdout = sys.stdout, f
            try:
                replay.main([self.rec, "--tri", self.tri, "--budget", "1e-9"])
            finally:
                sys.stdout = old
        with open(os.path.join(self.rec, "replay.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual({r["status"] for r in rows}, {"skipped"})
        with open(os.path.join(self.rec, "summary.txt")) as f:
            self.assertIn("skipped (--budget ran out)      8", f.read())

    def test_unsaved_output_is_a_mismatch(self):
        shutil.rmtree(os.path.join(self.rec, "launches"))
        self.add("9-nosave", "nosave")
        with open(os.devnull, "w") as f:
            old, sys.stdout = sys.stdout, f
            try:
                replay.main([self.rec, "--tri", self.tri, "--no-interpret"])
            finally:
                sys.stdout = old
        with open(os.path.join(self.rec, "replay.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["mode"], r["status"]) for r in rows], [("gpu", "mismatch")])
        self.assertIn("x: not saved", rows[0]["detail"])


if __name__ == "__main__":
    unittest.main()
