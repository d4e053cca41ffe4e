#!/usr/bin/env bash
# GPU check of tri review: on a machine with NVRTC (and a GPU for --check),
# writes the review page of every sample and shows, per page, whether it
# holds ptxas's report and SASS counts per source line (from the cubin's
# line table), then one page with --check. Build first, from the repo root:
#   CGO_ENABLED=0 go build -o bin/tri ./cmd/tri
# Run: bench/review_check.sh   (pages and logs under $OUT, else a temp dir)
set -u
cd "$(dirname "$0")/.."
TRI=${TRI:-bin/tri}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT/review"
rows=()
fail=0
for f in samples/*.tri; do
	name=$(basename "$f" .tri)
	arch=$(sed -n 's/^# arch: //p' "$f" | head -1)
	page="$OUT/review/$name.html"
	if ! "$TRI" review "$f" ${arch:+--arch "$arch"} -o "$page" >"$OUT/review/$name.log" 2>&1; then
		rows+=("$(printf '%-24s %s' "$name" "FAIL: $(tail -1 "$OUT/review/$name.log")")")
		fail=$((fail + 1))
		continue
	fi
	regs=$(grep -o '<b>[0-9]* registers</b>' "$page" | grep -o '[0-9]*' | head -1)
	spill=$(grep -o '[0-9]* bytes of spill stores' "$page" | grep -o '^[0-9]*' | head -1)
	sass=$(grep -c 'class="heat"' "$page")
	note=$(grep -o 'No ptxas report: [^<]*' "$page" | head -1)
	[ -z "$regs" ] && fail=$((fail + 1))
	rows+=("$(printf '%-24s %5s %6s %9s %7s  %s' "$name" "${regs:--}" "${spill:--}" "$sass" "$(($(wc -c <"$page") / 1024))" "$note")")
done
chk="$OUT/review/add_check.html"
"$TRI" review samples/add.tri --check -o "$chk" >"$OUT/review/add_check.log" 2>&1
if grep -q '<p class="good">passed</p>' "$chk" 2>/dev/null; then check=passed; else check="FAILED (see $chk)"; fail=$((fail + 1)); fi
echo
echo "tri review with NVRTC: pages under $OUT/review"
printf '%-24s %5s %6s %9s %7s\n' sample regs spills sass-lines KiB
printf '%s\n' "${rows[@]}"
echo "tri review samples/add.tri --check: $check"
echo "failures: $fail"
[ "$fail" = 0 ]
