#!/usr/bin/env bash
# GPU call L5 (issue 11), one H200: the suite (tests, compute-sanitizer memcheck and racecheck; no
# benchmark, no just-in-time build) of branch issue11-staged-sums' LayerNorm project (.gpu/ at
# .gpu/commit.txt), whose staged forward the branch changed most; the session's device time left
# room for one. One GPU: its two-GPU cases skip. Within LIMIT seconds (default 470). Results tarred
# into $OUT/res_l5.tgz.
. "$(dirname "$0")/../call_lib.sh" l5
limit=${LIMIT:-470}
suite() {  # suite PROJECT: its record in $R/PROJECT
  local p=$1
  (cd "$X/$p" && MAX_JOBS=8 timeout "$(( limit - $(elapsed) ))" python3 benchmarks/gpu_suite.py \
     --skip-benchmark --skip-jit --out "$R/$p" > "$R/${p}_suite.log" 2>&1
   echo "suite $p exit $? at $(elapsed) s: $(tail -n 1 "$R/$p/tests.log" 2>/dev/null)")
  for answers in "$X/$p"/.copier-answers*.yml; do cp "$answers" "$R/$p/${answers##*/.}"; done
  pack
}
suite layer_norm
echo "done at $(elapsed) s"; pack
