#!/usr/bin/env python3
"""Replay launches recorded by record.py through tri and compare.

    python3 bench/record/replay.py --tri bin/tri DIR [--jobs 8] [--no-gpu] [--no-interpret]

For each DIR/launches/*/launch.json, runs the launch with the recorded
inputs (`--let NAME=load('NAME.in.npy', dtype=...)`) through `tri run` on
the GPU and through `tri run --interpret`, saves every tensor argument
after the launch (`--save`), and compares it with what Triton left there
(NAME.out.npy): "exact" (same bits), "ulp" (within --ulps units in the last
place of the recorded dtype, bfloat16 and fp8 counted on their own grids),
"near" (not within the ulps, but within --rtol/--atol) or "mismatch".

Each launch gets one status per mode:

  match          tri ran it and every tensor is exact or within the ulps
  near           tri ran it; some tensor is only within rtol/atol
  mismatch       tri ran it; some tensor differs (the reproducer is listed)
  tri-error      tri refused or failed where Triton compiled and ran it
  both-reject    Triton raised, and tri refused too
  tri-accepts    Triton raised, tri ran it (tri is more lenient, or Triton
                 failed for a reason of its own: read the error)
  unsupported    the recorder could not write the launch for tri (the
                 reason is in the CSV)

The table (summary.txt) counts, of the launches Triton compiled and ran,
how many tri builds and runs and, of those, how many match; the CSV
(replay.csv) has one row per launch and mode with the reproducer command.
Only the standard library is needed (NumPy speeds up comparing large
tensors).
"""
import argparse
import collections
import concurrent.futures
import csv
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npyio  # noqa: E402

MODES = ("gpu", "interp")
FIELDS = ["id", "mode", "status", "kernel", "test", "site", "detail", "max_ulp", "seconds", "command"]


def load_launches(d):
    out = []
    for p in sorted(glob.glob(os.path.join(d, "launches", "*", "launch.json"))):
        with open(p) as f:
            rec = json.load(f)
        rec["_dir"] = os.path.dirname(p)
        out.append(rec)
    return out


def tri_command(tri, rec, mode, save_dir=None, timeout="60s"):
    """The tri run command of a recorded launch; with save_dir, saving each
    tensor there as NAME.npy."""
    cmd = [tri, "run", rec["kernel_file"], rec["launch"]]
    if mode == "interp":
        cmd.append("--interpret")
    if rec.get("debug"):
        cmd.append("--debug")
    root = rec.get("root")
    if root and os.path.isdir(root):
        cmd += ["--root", root]
    for name, info in rec["tensors"].items():
        path = os.path.join(rec["_dir"], info["in"])
        cmd += ["--let", f"{name}=load({path!r}, dtype={info['dtype']!r})"]
    if save_dir is not None:
        for name in rec["tensors"]:
            cmd += ["--save", f"{name}={os.path.join(save_dir, name + '.npy')}"]
    cmd += ["--timeout", timeout]
    return cmd


def first_error(text):
    """The first line of tri's output that says what went wrong."""
    lines = [l for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower() or ": " in l and ":" in l.split(": ")[0]:
            return l.strip()[:300]
    return (lines[0].strip() if lines else "(no output)")[:300]


def replay_one(args, rec, mode):
    """One launch in one mode: a CSV row (a dict)."""
    row = {"id": rec["id"], "mode": mode, "kernel": rec.get("qualname") or rec.get("kernel"),
           "test": rec.get("test", ""), "site": rec.get("site", ""), "detail": "", "max_ulp": "",
           "seconds": "", "command": ""}
    if rec.get("unsupported"):
        row.update(status="unsupported", detail=rec["unsupported"].splitlines()[0][:300])
        return row
    if any("in" not in t for t in rec["tensors"].values()):
        row.update(status="unsupported", detail="an input was not saved")
        return row
    row["command"] = " ".join(shlex.quote(c) for c in tri_command(args.tri, rec, mode))
    tmp = tempfile.mkdtemp(prefix="trireplay")
    try:
        cmd = tri_command(args.tri, rec, mode, tmp, args.timeout)
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.kill_after)
            rc, out = p.returncode, p.stderr + p.stdout
        except subprocess.TimeoutExpired:
            rc, out = -1, f"killed after {args.kill_after}s"
        row["seconds"] = f"{time.time() - t0:.2f}"
        triton_err = rec.get("triton_error")
        if rc != 0:
            row["detail"] = first_error(out)
            if triton_err:
                row["status"] = "both-reject"
                row["detail"] += " | Triton: " + triton_err.splitlines()[0][:200]
            else:
                row["status"] = "tri-error"
            return row
        if triton_err:
            row.update(status="tri-accepts", detail="Triton: " + triton_err.splitlines()[0][:300])
            return row
        results, notes = [], []
        for name, info in rec["tensors"].items():
            got_path = os.path.join(tmp, name + ".npy")
            if "out" not in info or not os.path.exists(got_path):
                results.append(npyio.Result("mismatch", f"{name}: not saved"))
                notes.append(f"{name}: not saved")
                continue
            r = npyio.compare(npyio.read(got_path), npyio.read(os.path.join(rec["_dir"], info["out"])),
                              info["dtype"], args.ulps, args.rtol, args.atol)
            results.append(r)
            if r.kind != "exact":
                notes.append(f"{name}: {r.detail}")
        w = npyio.worst(results)
        row["status"] = {"exact": "match", "ulp": "match"}.get(w.kind, w.kind)
        row["max_ulp"] = str(max((r.max_ulp for r in results), default=0))
        row["detail"] = "; ".join(notes)[:500]
        return row
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def summarize(rows, n_launches):
    """The table: counts per mode over the launches Triton compiled."""
    by = collections.defaultdict(collections.Counter)
    for r in rows:
        by[r["mode"]][r["status"]] += 1
    lines = [f"recorded launches: {n_launches}"]
    for mode in MODES:
        c = by.get(mode)
        if not c:
            continue
        compiled = c["match"] + c["near"] + c["mismatch"] + c["tri-error"]
        built = c["match"] + c["near"] + c["mismatch"]
        pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "-"
        lines += [
            f"{mode}:",
            f"  unsupported by the recorder     {c['unsupported']}",
            f"  Triton rejected                 {c['both-reject'] + c['tri-accepts']}"
            f" (tri rejects too: {c['both-reject']}, tri runs it: {c['tri-accepts']})",
            f"  Triton compiled and ran         {compiled}",
            f"    tri builds and runs           {built} ({pct(built, compiled)})",
            f"    matches (of those built)      {c['match']} ({pct(c['match'], built)})",
            f"    near (rtol/atol only)         {c['near']}",
            f"    mismatches                    {c['mismatch']}",
            f"    tri errors                    {c['tri-error']}",
        ]
        if c["skipped"]:
            lines.append(f"  skipped (--budget ran out)      {c['skipped']}")
    return "\n".join(lines)


def listing(rows, status, limit):
    """The rows of one status, the most frequent details first."""
    sel = [r for r in rows if r["status"] == status]
    if not sel:
        return ""
    groups = collections.OrderedDict()
    for r in sorted(sel, key=lambda r: (r["mode"], r["id"])):
        groups.setdefault((r["mode"], r["detail"].split(" | ")[0][:160]), []).append(r)
    out = [f"\n{status} ({len(sel)}):"]
    for (mode, detail), rs in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:limit]:
        out.append(f"  [{mode}] x{len(rs)} {rs[0]['kernel']} ({rs[0]['test'] or rs[0]['site']}): {detail}")
        if status in ("mismatch", "near", "tri-accepts") and rs[0]["command"]:
            out.append(f"      {rs[0]['command']}")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--no-gpu", action="store_true", help="only the interpreter")
    ap.add_argument("--no-interpret", action="store_true", help="only the GPU")
    ap.add_argument("--ulps", type=int, default=4)
    ap.add_argument("--rtol", type=float, default=1e-2)
    ap.add_argument("--atol", type=float, default=1e-3)
    ap.add_argument("--timeout", default="60s", help="tri's --timeout")
    ap.add_argument("--kill-after", type=float, default=180, help="seconds before a tri process is killed")
    ap.add_argument("--csv", default=None, help="default DIR/replay.csv")
    ap.add_argument("--list", type=int, default=40, help="rows listed per status")
    ap.add_argument("--budget", type=float, default=0,
                    help="seconds after which launches not yet started are skipped (counted as such)")
    args = ap.parse_args(argv)
    args.tri = os.path.abspath(args.tri) if os.sep in args.tri else args.tri
    recs = load_launches(args.dir)
    modes = [m for m in MODES if not (m == "gpu" and args.no_gpu) and not (m == "interp" and args.no_interpret)]
    jobs = [(r, m) for r in recs for m in modes]
    rows = []
    deadline = time.time() + args.budget if args.budget else None

    def one(rm):
        if deadline and time.time() > deadline:
            r, m = rm
            return {"id": r["id"], "mode": m, "status": "skipped", "kernel": r.get("qualname") or r.get("kernel"),
                    "test": r.get("test", ""), "site": r.get("site", ""), "detail": "--budget ran out",
                    "max_ulp": "", "seconds": "", "command": ""}
        return replay_one(args, *rm)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for row in ex.map(one, jobs):
            rows.append(row)
    csv_path = args.csv or os.path.join(args.dir, "replay.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    text = summarize(rows, len(recs))
    for status in ("mismatch", "near", "tri-error", "tri-accepts", "unsupported"):
        text += listing(rows, status, args.list)
    with open(os.path.join(args.dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(text)
    print(f"\nCSV: {csv_path}")
    return 1 if any(r["status"] in ("mismatch", "tri-error") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
