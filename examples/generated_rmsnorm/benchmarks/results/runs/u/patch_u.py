"""Lab U1: L2 prefetch (cp.async.bulk.prefetch.L2) of rows ahead, behind two knobs read at each call:
LAB_FWD_PF=1: the forward's cluster rows prefetch the row that the cluster `resident clusters` later
  will take (the next wave's); LAB_FWD_PF=2: twice as far.
LAB_BWD_PF=1: the backward's in-register row groups prefetch the row after the one they stage
  (or, unstaged, their next row).
Usage: python3 patch_u.py PROJECT..."""

# ruff: noqa: E501 (C++ source lines, quoted as they stand)
import sys
from pathlib import Path


def sub(text, old, new, count=1):
    assert text.count(old) == count, (old, text.count(old))
    return text.replace(old, new)


for project in sys.argv[1:]:
    path = Path(project) / "csrc/row_norm/cuda.cuh"
    s = path.read_text()
    s = sub(
        s,
        "// ---------------------------------------------------------------------------------------------\n// Forward\n",
        """__device__ __forceinline__ void prefetch_l2(const void* p, int64_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\\n" ::"l"(p), "r"(static_cast<unsigned>(bytes)) : "memory");
#endif
}

// ---------------------------------------------------------------------------------------------
// Forward
""",
    )
    # forward: parameter and the prefetch
    s = sub(
        s,
        "int64_t rows, int64_t cols, int row_threads, int passes, int cluster, at::opmath_type<scalar_t> eps) {\n  using opmath_t = at::opmath_type<scalar_t>;\n  using V = core::Vector<scalar_t, kVec>;\n  using P",
        "int64_t rows, int64_t cols, int row_threads, int passes, int cluster, at::opmath_type<scalar_t> eps,\n    int64_t prefetch_rows) {\n  using opmath_t = at::opmath_type<scalar_t>;\n  using V = core::Vector<scalar_t, kVec>;\n  using P",
    )
    s = sub(
        s,
        "  if (kCached) passes = 1;\n  V items[kItems];",
        """  if constexpr (!kShifted && sizeof(V) == 16) {
    if (prefetch_rows > 0 && threadIdx.x == 0) {
      const int64_t ahead = row + prefetch_rows;
      const int64_t vecs = std::min<int64_t>(static_cast<int64_t>(kItems) * row_threads, col_vecs - first);
      if (ahead < rows && vecs > 0) {
        prefetch_l2(x + ahead * cols + first * kVec, vecs * 16);
        if constexpr (kResidual) prefetch_l2(residual + ahead * cols + first * kVec, vecs * 16);
      }
    }
  }
  if (kCached) passes = 1;
  V items[kItems];""",
    )
    s = sub(
        s,
        "      int64_t rows, int64_t cols, int row_threads, int passes, int cluster, at::opmath_type<scalar_t> eps\n",
        "      int64_t rows, int64_t cols, int row_threads, int passes, int cluster, at::opmath_type<scalar_t> eps, \\\n      int64_t prefetch_rows\n",
    )
    s = sub(
        s,
        "x, residual, weight, bias, y, residual_out, rows, cols, row_threads, passes, cluster, eps);",
        "x, residual, weight, bias, y, residual_out, rows, cols, row_threads, passes, cluster, eps, prefetch_rows);",
        count=2,
    )
    # forward host
    s = sub(
        s,
        """          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block * cluster;
          launch(forward_kernel_for""",
        """          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block * cluster;
          int64_t prefetch_rows = 0;
          const char* knob = std::getenv("LAB_FWD_PF");
          if (cluster > 1 && knob != nullptr && knob[0] != '0') {
            prefetch_rows = static_cast<int64_t>(max_active_clusters(
                                forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(),
                                g.block_threads(), 0, cluster)) *
                            g.rows_per_block * (knob[0] - '0');
          }
          launch(forward_kernel_for""",
    )
    s = sub(
        s,
        "                 g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps));\n        };\n        dispatch_rows<kForwardItems",
        "                 g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps), prefetch_rows);\n        };\n        dispatch_rows<kForwardItems",
    )
    # backward kernel
    s = sub(
        s,
        "                    int64_t rows, int64_t cols, int row_threads, int passes, int cluster,\n                    at::opmath_type<scalar_t> eps) {",
        "                    int64_t rows, int64_t cols, int row_threads, int passes, int cluster,\n                    at::opmath_type<scalar_t> eps, int prefetch) {",
    )
    s = sub(
        s,
        """    if constexpr (kStaged) {
      stage_row(row + (kStages - 1) * partial_rows, (stage + kStages - 1) % kStages);""",
        """    if constexpr (kInRegisters && !kShifted && sizeof(V) == 16) {
      if (prefetch && t == 0) {
        const int64_t ahead = row + (kStaged ? kStages : 1) * partial_rows;
        const int64_t vecs = std::min<int64_t>(static_cast<int64_t>(kItems) * row_threads, col_vecs - first);
        if (ahead < rows && vecs > 0) {
          prefetch_l2(x + ahead * cols + first * kVec, vecs * 16);
          prefetch_l2(grad_out + ahead * cols + first * kVec, vecs * 16);
          if (add_grad_residual) prefetch_l2(grad_residual_out + ahead * cols + first * kVec, vecs * 16);
        }
      }
    }
    if constexpr (kStaged) {
      stage_row(row + (kStages - 1) * partial_rows, (stage + kStages - 1) % kStages);""",
    )
    s = sub(
        s,
        "                   g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps));\n            // Every row",
        "                   g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps),\n                   [] { const char* k = std::getenv(\"LAB_BWD_PF\"); return k != nullptr && k[0] != '0' ? 1 : 0; }());\n            // Every row",
    )
    path.write_text(s)
    print("patched", path)
