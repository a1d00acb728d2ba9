#!/usr/bin/env bash
# two_pass_backward.sh BEFORE AFTER: LayerNorm projects rendered by the template (`scaffold gpu-bundle`,
# DIR/layer_norm), built in place for the CPU (here: BEFORE at f4fd0a6, whose backward reads a row three
# times, for its statistics, for the formula's sums and the partial sums, and for grad_x; AFTER with the
# backward of two reads that the next commit takes, the statistics and the formula's sums in one).
# Runs ../stats_pass_bound.py (float32's lines kept) at 512 x 4096 (40 calls) and 4096 x 4096 (7) on
# each build in turn, BEFORE first, two rounds. Ran on this repository's development machine (2 cores
# of an AMD EPYC, torch 2.13.0+cpu, the loops compiled for AVX512) on 2026-11-29; output
# two_pass_backward.txt. PY: the Python with torch (default python).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd); PY=${PY:-python}
for round in 1 2; do
  for d in "$1" "$2"; do
    for shape in "512 4096 40" "4096 4096 7"; do
      echo "== $round $d $shape"
      (cd "$d" && "$PY" "$HERE/../stats_pass_bound.py" $shape 2>&1 | grep float32)
    done
  done
done
