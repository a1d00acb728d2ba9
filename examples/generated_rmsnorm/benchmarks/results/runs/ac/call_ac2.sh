#!/usr/bin/env bash
# Landing call AC, part two (issue 11), on two H200s of one host (nvidia-h200-x2), for the same
# renderings as part one (call_ac1.sh; .gpu/commit.txt must name the same commit): the suites of the
# RMSNorm example, the other three norms and the two-family project with both GPUs visible (their
# second-device and DistributedDataParallel cases, NCCL), by gpu_suite.py without compute-sanitizer,
# benchmark or just-in-time build, as call M ran them (../m/call_m.sh), but two at a time (M ran three)
# in two queues of about equal time by M's records. Carry .gpu.
#   bash call_ac2.sh      builds the five projects at once, then their suites
# Results in $OUT/res_ac2.tgz; unpacked into runs/ac/two/ with the console output as console.txt.
. "$(dirname "$0")/../call_lib.sh" ac2
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
projects="two_families fused_add_rms_norm fused_add_layer_norm rmsnorm layer_norm"  # the longest first
for p in $projects; do build "$p" 6 & done
wait; pack
queue() {  # queue PROJECT...: one after another
  local p
  for p in "$@"; do suite "$p" --skip-build --skip-sanitizer; pack; done
}
queue two_families layer_norm &
queue fused_add_rms_norm fused_add_layer_norm rmsnorm &
wait
echo "done at $(elapsed) s"; pack
