#!/usr/bin/env bash
# ncu_lab.sh OUTDIR: Nsight Compute (clocks left alone) on the third forward+backward's kernels of
# RMSNorm and LayerNorm, bfloat16, at 1024 x 65536 (LayerNorm's forward at 73% of the copy rate in
# calls G2, RMSNorm's at 86%) and, for comparison, 4096 x 16384; run from the repository root after
# call_g2.sh a has built .gpu/'s projects.
set -u
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
O=$1; mkdir -p "$O"
# DEADLINE (seconds since the epoch): no ncu run starts after it, and each ends by it (an outer timeout
# would stop this script but not ncu, which its own timeout runs in a process group of its own).
deadline=${DEADLINE:-$(( $(date +%s) + 600 ))}
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats
          --section SchedulerStats --section Occupancy --section LaunchStats)
for shape in "1024 65536" "4096 16384"; do
  for p in rmsnorm:generated_rmsnorm:rms_norm layer_norm:example_layer_norm:layer_norm; do
    IFS=: read -r dir pkg op <<< "$p"
    tag="${op}_${shape/ /x}"
    # The third call's kernels (forward, backward, sum_rows): the randn of the outputs' gradients
    # are other kernels, so ncu takes the norm's by name.
    left=$(( deadline - $(date +%s) )); [ "$left" -gt 5 ] || { echo "ncu $tag: no time left"; continue; }
    (cd "$root/.gpu/$dir" && timeout $(( left < 60 ? left : 60 )) ncu --clock-control none -k "regex:^(forward|backward|sum_rows)" --launch-skip 6 --launch-count 3 \
      "${sections[@]}" python3 "$G/ncu_lab.py" "$pkg" "$op" bfloat16 $shape) > "$O/ncu_$tag.txt" 2>&1
    echo "ncu $tag exit $?"
  done
done
