#!/usr/bin/env bash
# GPU call L (issue 11), one H200: the four norms' benchmarks on branch issue11-staged-sums (the
# projects of `scaffold gpu-bundle .gpu` at .gpu/commit.txt), as gpu_suite.py runs them, with the plot;
# one at a time on the one GPU (16 cores). Projects are built first, all at once (as run, a project
# already built in .gpu/ would have been kept, but none was: .gpu/ is carried with each call, which
# replaces the builds of an earlier call, so L2 built RMSNorm again). A benchmark starts only while the call's
# 585 s leave it 200 s; the rest run in a later call of the same script, given those projects. As
# run: `call_l.sh l1 layer_norm fused_add_layer_norm fused_add_rms_norm rmsnorm` (RMSNorm was left
# for later), then `call_l.sh l2 rmsnorm`; console output in l1/ and l2/console.txt.
# (After the run, the same commands: its Liger install, builds and benchmarks moved to call_lib.sh's
# install_liger, build and bench; that build does not look for an earlier one, which never applied.)
# Liger-Kernel from .whl/ (carried). Results tarred into $OUT/res_NAME.tgz.
#   bash call_l.sh NAME PROJECT...
name=$1; shift
. "$(dirname "$0")/../call_lib.sh" "$name"
install_liger
for p in "$@"; do build "$p" 4 & done
wait
pack
for p in "$@"; do
  if [ $(( $(elapsed) + 200 )) -gt 585 ]; then echo "bench $p: left for a later call (at $(elapsed) s)"; continue; fi
  bench "$p"; pack
done
echo "done at $(elapsed) s"; pack
