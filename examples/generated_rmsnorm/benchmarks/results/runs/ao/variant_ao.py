# ruff: noqa: E501
"""Lab AO's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh, on top of lab
AN's an2 (../am/variant_am.py words and idx32, ../an/variant_an.py invnarg and rs, applied first).
    python3 variant_ao.py PROJECT db
db: the backward's row sums take one block barrier a row rather than two. row_reduce writes each
warp's value to shared memory between two barriers, the first so that no warp overwrites the previous
reduction's values while a slower warp still reads them. A block has at most 16 warps and smem 32
slots: the backward's reductions alternate between its two halves, so a half is written again only
after every thread has passed the second barrier of the reduction in between, which a thread reaches
only after reading this one; the first barrier goes. A far row's second sums (far_row_sums, which
keeps both barriers, on the first half) are followed by a block barrier where a row spans more than
a warp (one row a block: every thread takes the far path or none), so that the next row's
reduction, into either half, waits for every thread's reads."""

import sys
from pathlib import Path

project, variant = sys.argv[1], sys.argv[2]
path = Path(project) / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
EDITS = {
    "db": [
        (
            "__device__ __forceinline__ S row_reduce(S value, int row_threads, S* smem) {\n",
            "__device__ __forceinline__ S row_reduce(S value, int row_threads, S* smem, int half = -1) {  // lab AO (db)\n",
        ),
        (
            "  __syncthreads();  // every thread is done with the previous reduction's smem\n"
            "  if (lane == 0) smem[warp] = value;\n"
            "  __syncthreads();\n"
            "  value = lane < warps ? smem[lane] : S{};\n",
            '  static_assert(kMaxRowThreads / core::kWarp <= core::kWarp / 2, "a half of smem a block\'s warps");\n'
            "  if (half < 0) __syncthreads();  // every thread is done with the previous reduction's smem\n"
            "  S* slots = half < 0 ? smem : smem + half * (core::kWarp / 2);  // lab AO (db)\n"
            "  if (lane == 0) slots[warp] = value;\n"
            "  __syncthreads();\n"
            "  value = lane < warps ? slots[lane] : S{};\n",
        ),
        (
            "    sums = row_reduce(sums, row_threads, smem);\n"
            "    if constexpr (kClustered) sums = exchange.reduce(sums, stage, cluster, exchange_phases);\n",
            "    sums = row_reduce(sums, row_threads, smem, half);  // lab AO (db)\n"
            "    half ^= 1;\n"
            "    if constexpr (kClustered) sums = exchange.reduce(sums, stage, cluster, exchange_phases);\n",
        ),
        (
            "  [[maybe_unused]] bool first_row = true;\n  int stage = 0;\n",
            "  [[maybe_unused]] bool first_row = true;\n  int stage = 0;\n  int half = 0;  // lab AO (db): the half of smem of the next row's sums\n",
        ),
        (
            "          cluster_sync();  // no block rewrites its slot while a peer may still read it\n"
            "        }\n",
            "          cluster_sync();  // no block rewrites its slot while a peer may still read it\n"
            "        } else if (row_threads > core::kWarp) {\n"
            "          __syncthreads();  // lab AO (db): every thread has read far_row_sums' smem\n"
            "        }\n",
        ),
    ],
}
if variant not in EDITS:
    sys.exit("usage: variant_ao.py PROJECT db")
for old, new in EDITS[variant]:
    if text.count(old) != 1:
        sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"patched {path} ({variant})")
