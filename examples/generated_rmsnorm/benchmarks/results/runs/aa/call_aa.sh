#!/usr/bin/env bash
# GPU call AA (issue 11), one H200: the suites (tests, compute-sanitizer memcheck and racecheck; no
# benchmark, no just-in-time build) of the LayerNorm and residual-add LayerNorm projects of main
# (.gpu/ at .gpu/commit.txt, `scaffold gpu-bundle .gpu`), both at once: their CUDA kernels are the
# same as before, but their tests hold a new case, the backward of rows whose first element lies far
# (test_the_backward_of_rows_whose_first_element_lies_far_keeps_float32s_digits), which the CPU loops'
# two-read backward brought and which the CUDA kernels had not run. One GPU: the two-GPU cases skip.
# Within LIMIT seconds (default 560). Results tarred into $OUT/res_aa.tgz.
# (After the run, the same commands: its suite moved to call_lib.sh's suite; the pack that followed
# each suite in call L5 it never had.)
. "$(dirname "$0")/../call_lib.sh" aa
limit=${LIMIT:-560}
suite layer_norm &
suite fused_add_layer_norm &
wait
echo "done at $(elapsed) s"; pack
