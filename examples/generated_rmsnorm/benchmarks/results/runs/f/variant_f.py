# ruff: noqa: E501
"""Lab F: patches a rendered project's csrc/row_norm/cuda.cuh.
Always: LAB_FWD4=1 (read at each call) makes the forward take 4 vectors a thread on up to 512
threads for rows of 1025 to 2048 vectors (instead of 8 on up to 256).
--a0: the weight's offset is added only where it is not 0 (x + 0.0f is not folded by nvcc: -0 + 0 = +0).
--vec: the residual add reads float32/float64 x and residual in whole vectors, as the 16-bit types do.
python3 variant_f.py PROJECT [--a0] [--vec]"""

import sys
from pathlib import Path

path = Path(sys.argv[1]) / "csrc/row_norm/cuda.cuh"
flags = set(sys.argv[2:])
s = path.read_text()


def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:70], s.count(old))
    s = s.replace(old, new)


rep(
    "inline int pick_forward_items(int64_t rows, int64_t col_vecs) {\n",
    """inline int lab_env(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}
inline int pick_forward_items(int64_t rows, int64_t col_vecs) {
  if (lab_env("LAB_FWD4", 0) && col_vecs > 4 * kPreferredRowThreads && col_vecs <= 4 * kMaxRowThreads) return 4;
""",
)
if "--a0" in flags:
    rep(
        "(static_cast<opmath_t>(weight[edge - row_offset]) + kOffset)",
        "(kOffset != 0 ? static_cast<opmath_t>(weight[edge - row_offset]) + kOffset : static_cast<opmath_t>(weight[edge - row_offset]))",
    )
    rep(
        "f[e] = (f[e] - mean) * rstd * (w[e] + kOffset);",
        "f[e] = (f[e] - mean) * rstd * (kOffset != 0 ? w[e] + kOffset : w[e]);",
        2,
    )
    rep(
        "const opmath_t wdy = (w + kOffset) * g;",
        "const opmath_t wdy = (kOffset != 0 ? w + kOffset : w) * g;",
    )
    rep(
        "out[e] = rstd * ((w[e] + kOffset) * g[e] - c2 - x_hat * c1);",
        "out[e] = rstd * ((kOffset != 0 ? w[e] + kOffset : w[e]) * g[e] - c2 - x_hat * c1);",
    )
    rep(
        "opmath_t out = rstd * ((static_cast<opmath_t>(weight[c]) + kOffset) * g - c2 - x_hat * c1);",
        "opmath_t out = rstd * ((kOffset != 0 ? static_cast<opmath_t>(weight[c]) + kOffset : static_cast<opmath_t>(weight[c])) * g - c2 - x_hat * c1);",
    )
    assert "+ kOffset)" not in s.replace("? w[e] + kOffset :", "").replace("? w + kOffset :", "").replace(
        "]) + kOffset :", ""
    ), "an offset add left"
if "--vec" in flags:
    rep(
        "    if constexpr (sizeof(scalar_t) == 2) {\n      core::load_opmath(load_vector(p), out);",
        "    if constexpr (true) {\n      core::load_opmath(load_vector(p), out);",
    )
if "#include <cstdlib>" not in s:
    rep("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>\n")
path.write_text(s)
print("lab F variant", sorted(flags), "written to", path)
