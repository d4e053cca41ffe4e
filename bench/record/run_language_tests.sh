#!/usr/bin/env bash
# Triton's language tests as a conformance suite for tri, on a machine with
# an NVIDIA GPU, PyTorch, Triton 3.6 and pytest, from the repository root,
# after building tri elsewhere (CGO_ENABLED=0 go build -o bin/tri ./cmd/tri):
#
#   bench/record/run_language_tests.sh TESTS_DIR [RECORD_SECONDS]
#
# TESTS_DIR holds Triton's python/test/unit/language/*.py and
# python/test/conftest.py (the wheel installs neither). The script
#   1. records and replays bench/record/example.py: the recorder's own
#      check (autotune, heuristics, a nested kernel, views, aliasing);
#   2. picks a spread of the tests (select_tests.py: two parametrizations
#      per test function, round by round) and runs them under real Triton
#      with record.py for RECORD_SECONDS (default 100; SIGINT then, so
#      pytest ends cleanly and every finished launch is kept);
#   3. replays every recorded launch through tri on the GPU and in the
#      interpreter (replay.py, all cores, at most REPLAY_SECONDS, default 100)
#      and prints the table: launches, tri builds %, matches % of built,
#      mismatches with their reproducers.
# Logs, the summaries and the CSVs go to $OUT (default /tmp/tri-record);
# the recordings (tensors, kernel files: tens of MB) to $REC_DIR (default
# /tmp/tri-record-data). The whole run stays under 5 minutes on an H200.
set -u
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 TESTS_DIR [RECORD_SECONDS]" >&2
	exit 2
fi
repo=$(pwd)
tests=$(cd "$1" && pwd)
record_s=${2:-100}
replay_s=${REPLAY_SECONDS:-100}
OUT=${OUT:-/tmp/tri-record}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
REC_DIR=${REC_DIR:-/tmp/tri-record-data}
mkdir -p "$REC_DIR"
REC_DIR=$(cd "$REC_DIR" && pwd)
tri=$repo/bin/tri
jobs=$(nproc)
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
[ -x "$tri" ] || { echo "no $tri: build it first" >&2; exit 2; }
python3 -c 'import torch, triton, pytest; print("torch", torch.__version__, "triton", triton.__version__, "pytest", pytest.__version__, torch.cuda.get_device_name())' || exit 2

echo "== 1. the recorder's own check: bench/record/example.py"
rm -rf "$REC_DIR/example"
timeout 120 python3 bench/record/record.py --out "$REC_DIR/example" -- bench/record/example.py >"$OUT/example.log" 2>&1
tail -2 "$OUT/example.log"
python3 bench/record/replay.py --tri "$tri" --jobs "$jobs" "$REC_DIR/example" >"$OUT/example.replay.txt" 2>&1
sed -n '1,/^$/p' "$OUT/example.replay.txt" | head -30
grep -A12 -E '^(mismatch|near|tri-error|tri-accepts|unsupported) ' "$OUT/example.replay.txt" | head -40

echo "== 2. recording Triton's language tests for ${record_s}s"
work=$(mktemp -d)
cp -r "$tests"/. "$work"/
files=""
for f in test_core.py test_standard.py test_random.py test_tuple.py test_conversions.py test_annotations.py \
	test_block_pointer.py test_libdevice.py test_tensor_descriptor.py test_matmul.py test_pipeliner.py; do
	[ -f "$work/$f" ] && files="$files $f"
done
cd "$work" || exit 2
# Tests that launch nothing through JITFunction.run or only check compile
# errors, warnings and printing are left out; so are interpreter-only runs.
python3 "$repo/bench/record/select_tests.py" --per-function 2 \
	--exclude 'interpreter|test_print|test_assert|test_warn|_error|test_compile_only|test_lineinfo|ptx|test_num_warps_pow2' \
	$files >"$OUT/ids.txt" 2>"$OUT/select.log"
echo "$(wc -l <"$OUT/ids.txt") tests selected ($(tail -1 "$OUT/select.log"))"
rm -rf "$REC_DIR/lang"
start=$(date +%s)
mapfile -t ids <"$OUT/ids.txt" # one id a line: parametrization ids may hold spaces
timeout -s INT -k 15 "$record_s" python3 "$repo/bench/record/record.py" --out "$REC_DIR/lang" --per-kernel 2 -- \
	-m pytest -q -p no:cacheprovider -o addopts="" --continue-on-collection-errors "${ids[@]}" >"$OUT/pytest.log" 2>&1
echo "pytest: $(grep -E '(passed|failed|error)' "$OUT/pytest.log" | tail -1) in $(($(date +%s) - start))s"
cd "$repo" || exit 2

echo "== 3. replaying through tri (GPU and interpreter, $jobs jobs, at most ${replay_s}s)"
python3 bench/record/replay.py --tri "$tri" --jobs "$jobs" --budget "$replay_s" --list 60 "$REC_DIR/lang" >"$OUT/replay.txt" 2>&1
rc=$?
cp "$REC_DIR/lang/replay.csv" "$OUT/replay.csv" 2>/dev/null
cp "$REC_DIR/example/replay.csv" "$OUT/example.replay.csv" 2>/dev/null
rm -rf "$work" # the test files the plain kernels' files and --root point into
cat "$OUT/replay.txt"
echo
echo "recording: $REC_DIR/lang (launches/*/launch.json, kernels/); CSV and logs: $OUT"
exit $rc
