#!/usr/bin/env bash
# GPU call G3-2 (issue 11), one H200, on the same .gpu/ as call G3: the GPU suites that call G3 left
# incomplete (its five projects at once ran the GPU out of memory in the LayerNorm tests and the RMSNorm
# example's memcheck, and the two LayerNorm suites' racecheck out of time), three at once.
# Results in $OUT/res_g3_2a.tgz.
G=$(cd "$(dirname "$0")" && pwd)
CALL=g3_2 FAR=0 BENCH_UNTIL=0 SUITES="rmsnorm layer_norm fused_add_layer_norm" SUITE_LIMIT=430 \
  bash "$G/../g2/call_g2.sh" a
