#!/usr/bin/env bash
# Kernels of other projects against real Triton on the GPU: every spec in
# bench/real/ (a kernel file of another project, unchanged, and its launch)
# runs in tri's interpreter and on the GPU with tri, and under Triton, and
# the checked outputs are compared (bench/triton_compare.py --gpu).
#
# Run from the repository root on a machine with an NVIDIA GPU, CUDA and
# Python with PyTorch and Triton, after, on any machine:
#
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   bench/real/carry.sh DIR    # DIR: the exported projects, one folder each
#
# and carrying bin/tri and bin/real along. Logs go to $OUT (default
# /tmp/tri-real): real (tri's commands and output), compare.txt (the
# comparison's report). The table is printed last.
#
# Usage: bench/real_check.sh [SPEC...]   (default: bench/real/*.spec)
set -u
OUT=${OUT:-/tmp/tri-real}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if [ ! -x bin/tri ]; then
	echo "real_check.sh: bin/tri is missing: CGO_ENABLED=0 go build -o bin/tri ./cmd/tri" >&2
	exit 2
fi
if [ ! -f bin/real/SOURCES.txt ]; then
	echo "real_check.sh: bin/real is missing: bench/real/carry.sh DIR (the exported projects)" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	set -- bench/real/*.spec
fi
start=$(date +%s)
python3 bench/triton_compare.py --tri bin/tri --gpu --log "$OUT/real" "$@" 2>&1 | tee "$OUT/compare.txt"
rc=${PIPESTATUS[0]}
echo
echo "== kernels of other projects against Triton ($(($(date +%s) - start)) s; log: $OUT/real)"
printf '%-8s %-12s %s\n' result project spec
# triton_compare.py prints "ok   PATH" or "FAIL PATH" per spec, and
# "skip PATH" for one Triton cannot run on this GPU.
awk '$1 == "ok" || $1 == "FAIL" || $1 == "skip" {
	n = split($2, p, "/"); f = p[n]; sub(/\.spec$/, "", f)
	proj = f; sub(/_.*/, "", proj)
	printf "%-8s %-12s %s\n", $1, proj, f
	c[$1]++
	byp[proj] = byp[proj] + 0; if ($1 == "ok") byp[proj]++; tot[proj]++
}
END {
	printf "\nper project (specs matching / specs):"
	for (k in tot) printf " %s %d/%d", k, byp[k], tot[k]
	printf "\nmatch %d, FAIL %d, skip %d\n", c["ok"], c["FAIL"], c["skip"]
}' "$OUT/compare.txt"
tail -1 "$OUT/compare.txt"
exit "$rc"
