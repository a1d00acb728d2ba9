#!/usr/bin/env bash
# stats_pass_bound.sh PROJECT: PROJECT is a LayerNorm project rendered by the template (here:
# `scaffold gpu-bundle DIR` at main 8678597, DIR/layer_norm; its csrc/row_norm/cpu.h is main's
# since). Builds it for the CPU as it is and, in a copy, with the backward's `Row` taken over one
# column (the statistics pass skipped); then stats_pass_bound.py at 512 x 4096 and 4096 x 4096 on
# each build in turn, the template's first, three rounds. VENV: the venv with torch (default
# /tmp/venv; torch 2.13.0+cpu). The builds' output is not kept.
set -eu
P=$(cd "$1" && pwd); HERE=$(cd "$(dirname "$0")" && pwd); PY=${VENV:-/tmp/venv}/bin/python
B=$(mktemp -d)/bound; cp -r "$P" "$B"; rm -rf "$B/build" "$B"/src/*/_C*.so
line='const R row(x + offset, cols, buffer, eps);'
grep -q "$line" "$B/csrc/row_norm/cpu.h"
sed -i "s|$line|const R row(x + offset, 1, buffer, eps);  // the bound: no statistics pass|" "$B/csrc/row_norm/cpu.h"
for d in "$P" "$B"; do (cd "$d" && MAX_JOBS=2 "$PY" setup.py build_ext --inplace > /dev/null 2>&1); done
for round in 1 2 3; do
  for shape in "512 4096 40" "4096 4096 7"; do
    for d in "$P" "$B"; do
      echo "== round $round, $( [ "$d" = "$P" ] && echo template || echo bound ), ${shape% *}"
      (cd "$d" && "$PY" "$HERE/stats_pass_bound.py" $shape)
    done
  done
done
