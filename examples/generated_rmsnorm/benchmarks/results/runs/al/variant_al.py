"""Lab AL's variant (issue 11) of LayerNorm's CUDA backward: three stages where RMSNorm takes them
(rows that start on a vector boundary, four or more vectors a thread, no residual add), against the
two that a centred norm takes on main (kMostStages in csrc/row_norm/cuda.cuh). At 1024 x 65536 in
bfloat16 (call AI's table) LayerNorm's backward (forward+backward less forward) took 150.8 us of
device time for three tensors of 128 MiB, RMSNorm's, in three stages, 117.6, the residual-add
LayerNorm's, staging three tensors in two stages since call AK, 166.3 for four; lab C1 had three
stages at 32768 x 4096, 8192 x 8192 and 4096 x 16384 1.9 to 4.2% slower in LayerNorm's 16-bit
forward+backward, but did not time the clusters of 1024 x 65536. Applied to a rendered project's
csrc/row_norm/cuda.cuh:
    python3 variant_al.py PROJECT three"""

import sys
from pathlib import Path

project, variant = sys.argv[1], sys.argv[2]
path = Path(project) / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
if variant != "three":
    sys.exit("usage: variant_al.py PROJECT three")
old = "constexpr int kMostStages = !kCentered && !kResidual && !kShifted && kItems >= 4 ? 3 : 2;\n"
new = "constexpr int kMostStages = !kResidual && !kShifted && kItems >= 4 ? 3 : 2;  // lab AL (three)\n"
if text.count(old) != 1:
    sys.exit(f"{path}: expected one match of kMostStages")
path.write_text(text.replace(old, new))
print(f"patched {path} ({variant})")
