#!/usr/bin/env bash
# GPU check of the fixes for the mismatches of the first replay of Triton's
# language tests (docs/RECORD.md), and evidence for the ones tri keeps:
#
#  1. tri run --check (GPU against the interpreter) on the constructs that
#     reproduce the fixed mismatches: join_scalars (tl.join/tl.interleave of
#     two scalars), atomic_neg_zero (float atomic max/min with -0.0),
#     bool_sum (int1 sums wrap to their parity);
#  2. the conformance GPU test on the same constructs (GPU against the
#     interpreter, whose results the Go references check), if
#     bin/conformance.test is built;
#  3. bench/replay_fixes_triton.py under real Triton: the order tl.cat with
#     can_reorder=True gives on the GPU and in Triton's interpreter, the
#     values test_constexpr_if_return's kernel stores over many launches,
#     which elements outside a 3-D descriptor's shape Triton's store writes,
#     and whether Triton turns test_dot_mulbroadcasted's sum into a TF32 dot.
#
# Build first, from the repo root:
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
#   go test -c -o bin/conformance.test ./conformance
# Run: bash bench/replay_fixes_check.sh   (logs under $OUT/replay_fixes)
set -u -o pipefail
cd "$(dirname "$0")/.."
TRI=${TRI:-bin/tri}
PY=${PYTHON:-python3}
W=${OUT:-$(mktemp -d)}/replay_fixes
mkdir -p "$W"
rows=()
fail=0
CONSTRUCTS="join_scalars atomic_neg_zero bool_sum"

for c in $CONSTRUCTS; do
	if timeout 120 "$TRI" run "conformance/constructs/$c.tri" --check >"$W/check_$c.log" 2>&1; then
		rows+=("$(printf '%-34s %s' "tri run --check $c" PASS)")
	else
		rows+=("$(printf '%-34s %s' "tri run --check $c" "FAIL: $(tail -1 "$W/check_$c.log")")")
		fail=$((fail + 1))
	fi
done

if [ -x bin/conformance.test ]; then
	pat=$(echo "$CONSTRUCTS" | tr ' ' '|')
	(cd conformance && TRI_REQUIRE_GPU=1 timeout 300 ../bin/conformance.test -test.run "TestGPU\$/($pat)\$" -test.v) >"$W/conformance.log" 2>&1
	rc=$?
	for c in $CONSTRUCTS; do
		st=$(grep -o -- "--- [A-Z]*: TestGPU/$c " "$W/conformance.log" | awk '{print $2}' | tr -d :)
		rows+=("$(printf '%-34s %s' "TestGPU/$c" "${st:-MISSING (rc $rc)}")")
		[ "${st:-}" = PASS ] || fail=$((fail + 1))
	done
else
	rows+=("$(printf '%-34s %s' "conformance TestGPU" "skipped: no bin/conformance.test")")
fi

timeout 300 "$PY" bench/replay_fixes_triton.py >"$W/triton.log" 2>&1
TRITON_INTERPRET=1 timeout 120 "$PY" bench/replay_fixes_triton.py cat >"$W/triton_interp.log" 2>&1

echo
echo "replay fixes on the GPU (logs under $W)"
printf '%s\n' "${rows[@]}"
echo
echo "real Triton (bench/replay_fixes_triton.py):"
grep -E '^(cat|ifreturn|store3d|mulbcast) ' "$W/triton.log" "$W/triton_interp.log" | sed 's/^[^:]*://' | cut -c1-400
echo "failures: $fail"
[ "$fail" = 0 ]
