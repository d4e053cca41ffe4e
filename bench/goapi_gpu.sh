#!/usr/bin/env bash
# The GPU check of the Go API (package tri at the module root), run from the
# repository root on a machine with an NVIDIA GPU and NVRTC, after building
# the test binary elsewhere:
#
#   CGO_ENABLED=0 go test -c -o bin/tri.test .
#
# It runs TestGPURunAdd (samples/add.tri through the API: Go slices on the
# default stream and on a stream, device buffers on a stream, a kernel
# compiled for a signature on a buffer and slices, each checked against the
# sums computed in Go) and the package's other tests under
# TRI_REQUIRE_GPU=1, so that a missing driver fails instead of skipping.
# The log goes to $OUT/goapi_gpu.log when OUT is set; a table is printed last.
set -u
log=${OUT:-/tmp}/goapi_gpu.log
if [ ! -x bin/tri.test ]; then
	echo "bin/tri.test missing: build it with CGO_ENABLED=0 go test -c -o bin/tri.test ." >&2
	exit 2
fi
TRI_REQUIRE_GPU=1 timeout 200 bin/tri.test -test.v -test.count=1 >"$log" 2>&1
rc=$?
echo "test                                   result"
grep -E '^(=== RUN|--- (PASS|FAIL|SKIP))' "$log" | grep -E '^--- ' |
	sed -E 's/^--- (PASS|FAIL|SKIP): ([^ ]+).*/\2 \1/' |
	awk '{ printf "%-38s %s\n", $1, $2 }'
echo "exit status $rc (log: $log)"
exit $rc
