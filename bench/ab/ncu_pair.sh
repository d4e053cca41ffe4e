#!/bin/bash
# Profiles one case of bench/ab/cases.py under Nsight Compute, Triton's
# kernel and tri's (bin/tri, or $TRI), with the same inputs' sizes: each
# side's details page, per-instruction SASS with stall samples, and raw
# metrics as CSV under $OUT/prof (default /tmp/tri-ncu), to compare stall
# reasons and instruction mixes side by side. Run from the repository root.
#
# Usage: bench/ab/ncu_pair.sh CASE KERNEL-NAME-REGEX
OUT=${OUT:-/tmp/tri-ncu}
set -u
c=$1; re=$2; d=$OUT/prof; mkdir -p $d; tmp=$(mktemp -d)
NCU="ncu --set full --import-source no -f --kernel-name regex:$re"
timeout 200 $NCU --launch-skip 2 --launch-count 1 -o $d/triton_$c python3 bench/ab/cases.py triton $c > $d/triton_$c.log 2>&1
cmd=$(python3 bench/ab/cases.py tricmd $c $tmp)
eval "timeout 200 $NCU --launch-count 1 -o $d/tri_$c $cmd" > $d/tri_$c.log 2>&1
for w in triton tri; do
  if [ -f $d/${w}_$c.ncu-rep ]; then
    ncu -i $d/${w}_$c.ncu-rep --page details --csv > $d/${w}_$c.details.csv 2>&1
    ncu -i $d/${w}_$c.ncu-rep --page source --csv --print-source sass > $d/${w}_$c.sass.csv 2>&1
    ncu -i $d/${w}_$c.ncu-rep --page raw --csv > $d/${w}_$c.raw.csv 2>&1
    rm -f $d/${w}_$c.ncu-rep
  fi
done
rm -rf $tmp
echo "$c: $(ls $d | grep _$c | tr '\n' ' ')"
