#!/usr/bin/env bash
# Checks tl.dot's pipelined wgmma path on the GPU (sm_90a): the grouped
# matmul sample with tensor-core sized blocks, run by tri and by the
# interpreter on the same inputs (tri run --check), at sizes that are and
# are not multiples of the blocks, for the block shapes and warp counts
# the tutorials use. Run from the repository root after building bin/tri.
#
# Usage: bench/matmul_check.sh   (prints one line per case, FAIL lines last)
set -u
fail=0
check() { # m n k bm bn bk warps stages
	local launch="grouped_matmul_k[(triton.cdiv(m, $4), triton.cdiv(n, $5))](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=$4, bn=$5, bk=$6, group_sz=4, num_warps=$7, num_stages=$8)"
	local out
	if out=$(bin/tri run --check samples/matmul_grouped.tri "$launch" --let m=$1 --let n=$2 --let k=$3 \
		--let "a=randn(m, k, dtype='float16')" --let "b=randn(k, n, dtype='float16')" --let "c=empty(m, n, dtype='float16')" 2>&1); then
		echo "ok   ${1}x${2}x${3} blocks ${4}x${5}x${6} w$7 s$8"
	else
		echo "FAIL ${1}x${2}x${3} blocks ${4}x${5}x${6} w$7 s$8: $(echo "$out" | tail -3 | tr '\n' ' ')"
		fail=1
	fi
}
check 256 256 256 128 128 64 4 4
check 300 200 200 128 128 64 4 4
check 256 512 192 128 256 64 8 3
check 200 300 136 128 256 64 8 3
check 256 256 128 128 128 32 4 4
check 192 160 96 64 32 32 4 3
check 128 128 48 64 64 16 4 2
check 256 128 128 128 64 64 4 5
exit $fail
