#!/usr/bin/env bash
# GPU call L5 (issue 11), one H200: the suite (tests, compute-sanitizer memcheck and racecheck; no
# benchmark, no just-in-time build) of branch issue11-staged-sums' LayerNorm project (.gpu/ at
# .gpu/commit.txt), whose staged forward the branch changed most; the session's device time left
# room for one. One GPU: its two-GPU cases skip. Within LIMIT seconds (default 470). Results tarred
# into $OUT/res_l5.tgz.
# (After the run, the same commands: its suite moved to call_lib.sh's suite, and the pack after it
# to here.)
. "$(dirname "$0")/../call_lib.sh" l5
limit=${LIMIT:-470}
suite layer_norm; pack
echo "done at $(elapsed) s"; pack
