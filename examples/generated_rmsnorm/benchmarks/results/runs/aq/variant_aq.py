# ruff: noqa: E501
"""Lab AQ's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh, on top of lab
AN's an2 (../am/variant_am.py words and idx32, ../an/variant_an.py invnarg and rs, applied first).
    python3 variant_aq.py PROJECT bulk
bulk: the backward's stages filled by one-dimensional bulk copies (cp.async.bulk, sm_90 on: the
forward's staged rows already take them) rather than by every thread's 16-byte cp.async copies. This
machine's SASS of the bfloat16 LayerNorm backward (../am/sass/) spends about 85 instructions a thread
a row on the copies (64-bit addresses, the shared window rebuilt for every vector at 128 registers a
thread); a row group's slice of a row is contiguous in the stage (vector i of thread t at
i * row_threads + t, column first + i * row_threads + t), so the group's first thread copies each
tensor's slice with one instruction. The copies complete on full[s] (one arrival a row group, with the
bytes it expects, none past the last row); as a bulk copy writes every thread's part, a stage is filled
again only after the block has released it (empty[s]: every thread arrives after its last read of the
stage, the copying thread waits for that before its next copies into it). Without sm_90 (no
ROW_NORM_CLUSTERS), the cp.async copies as before (#else)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402

EDITS = {
    "bulk": [
        (
            "  const int group = threadIdx.x / row_threads;\n  const int t = threadIdx.x % row_threads;\n  // (cluster > 1",
            "  const int group = threadIdx.x / row_threads;\n  const int t = threadIdx.x % row_threads;\n"
            "#ifdef ROW_NORM_CLUSTERS\n"
            "  // Lab AQ (bulk): full[s], one arrival a row group with the bytes of its copies into stage s;\n"
            "  // empty[s], every thread's arrival after its last read of stage s. Bit s of the parities: the\n"
            "  // next phase of each; of stage_used: whether stage s was filled before.\n"
            "  __shared__ uint64_t stage_full[kStaged ? kStages : 1], stage_empty[kStaged ? kStages : 1];\n"
            "  unsigned full_parity = 0, empty_parity = 0, stage_used = 0;\n"
            "  if constexpr (kStaged) {\n"
            "    if (threadIdx.x == 0) {\n"
            "      for (int s = 0; s < kStages; ++s) {\n"
            '        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\\n" ::"r"(shared_address(&stage_full[s])),\n'
            '                     "r"(rows_per_block) : "memory");\n'
            '        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\\n" ::"r"(shared_address(&stage_empty[s])),\n'
            '                     "r"(blockDim.x) : "memory");\n'
            "      }\n"
            '      asm volatile("fence.mbarrier_init.release.cluster;\\n" ::: "memory");\n'
            '      asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");\n'
            "    }\n"
            "    __syncthreads();  // the barriers are initialized\n"
            "  }\n"
            "#endif\n"
            "  // (cluster > 1",
        ),
        (
            "  const auto stage_row = [&](int64_t r, int s) {\n"
            "    if constexpr (kStaged) {\n"
            "      if (r < rows) {\n",
            "  const auto stage_row = [&](int64_t r, int s) {\n"
            "    if constexpr (kStaged) {\n"
            "#ifdef ROW_NORM_CLUSTERS\n"
            "      if (t == 0) {  // lab AQ (bulk): the row group's first thread copies its slices\n"
            "        if ((stage_used >> s) & 1u) {  // the block has released the stage's previous row\n"
            "          copy_barrier_wait(&stage_empty[s], (empty_parity >> s) & 1u);\n"
            "          empty_parity ^= 1u << s;\n"
            "        }\n"
            "        if (r < rows) {\n"
            "          const int head = head_of(r);\n"
            "          const int64_t count = std::max<int64_t>(\n"
            "              0, std::min<int64_t>(static_cast<int64_t>(kItems) * row_threads, col_vecs_of(head) - first));\n"
            "          const unsigned bytes = static_cast<unsigned>(count * sizeof(V));\n"
            "          copy_barrier_expect(&stage_full[s], bytes * (staged_grad_residual ? 3u : 2u));\n"
            "          if (bytes > 0) {\n"
            "            bulk_copy(staged(s, 0, 0), reinterpret_cast<const V*>(x + r * cols + head) + first, bytes, &stage_full[s]);\n"
            "            bulk_copy(staged(s, 1, 0), reinterpret_cast<const V*>(grad_out + r * cols + head) + first, bytes,\n"
            "                      &stage_full[s]);\n"
            "            if (staged_grad_residual)\n"
            "              bulk_copy(staged(s, 2, 0), reinterpret_cast<const V*>(grad_residual_out + r * cols + head) + first,\n"
            "                        bytes, &stage_full[s]);\n"
            "          }\n"
            "        } else {\n"
            "          copy_barrier_expect(&stage_full[s], 0);  // no row: the arrival alone\n"
            "        }\n"
            "      }\n"
            "      stage_used |= 1u << s;\n"
            "#else\n"
            "      if (r < rows) {\n",
        ),
        (
            "      commit_async();  // a group each row, empty or not, so the waits below count rows\n",
            "      commit_async();  // a group each row, empty or not, so the waits below count rows\n#endif\n",
        ),
        (
            "      wait_async<kStages - 1>();  // this row's copies are done, the next rows' may still fly\n",
            "#ifdef ROW_NORM_CLUSTERS\n"
            "      copy_barrier_wait(&stage_full[stage], (full_parity >> stage) & 1u);  // lab AQ (bulk)\n"
            "      full_parity ^= 1u << stage;\n"
            "#else\n"
            "      wait_async<kStages - 1>();  // this row's copies are done, the next rows' may still fly\n"
            "#endif\n",
        ),
        (
            "    first_row = false;\n    stage = (stage + 1) % kTurns;\n",
            "#ifdef ROW_NORM_CLUSTERS\n"
            "    if constexpr (kStaged) {  // lab AQ (bulk): this thread is done with the stage\n"
            '      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\\n" ::"r"(shared_address(&stage_empty[stage]))\n'
            '                   : "memory");\n'
            "    }\n"
            "#endif\n"
            "    first_row = false;\n    stage = (stage + 1) % kTurns;\n",
        ),
    ],
}
variants.main(EDITS, sys.argv)
