#!/usr/bin/env bash
# GPU call G3 (issue 11), one H200, on .gpu/ as g2/prepare.sh renders it: part a of call_g2.sh (the
# four norms' GPU suites, whose tests and compute-sanitizer workload now take rows whose first element
# lies far from the others, and the two-family project's CUDA tests), without its far-rows timings and
# benchmarks (the kernels are G2's); then ncu_lab.sh in what is left of the call's 600 s.
# Results in $OUT/res_g3a.tgz.
G=$(cd "$(dirname "$0")" && pwd)
CALL=g3 FAR=0 BENCH_UNTIL=0 bash "$G/../g2/call_g2.sh" a
# (As G3 ran it, without DEADLINE: ncu_lab.sh's ncu outlived this timeout. Since, the deadline bounds it.)
DEADLINE=$(( $(date +%s) + 590 - SECONDS )) timeout $(( SECONDS < 585 ? 590 - SECONDS : 5 )) bash "$G/ncu_lab.sh" /tmp/res_g3a/ncu
echo "ncu lab done at $SECONDS s"
tar czf "$OUT/res_g3a.tgz" -C /tmp res_g3a
