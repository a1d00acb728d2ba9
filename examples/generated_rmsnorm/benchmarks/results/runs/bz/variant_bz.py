# ruff: noqa: E501
"""Lab BZ's variants (issue 11; session 59, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, c21025b): cache hints on the forward's global memory accesses. Lab BY (runs/by/): our
residual-add LayerNorm's float32 forward at 4096 x 16384 took 320.9 to 321.5 us of device time in
every process until torch.compile's forward had run many times on the same tensors (the per-call
rounds of torch.compile alone did it), 287.5 to 288.7 after, with the same launch and the same
output addresses; compiling and checking torch.compile's forward (one call) did not. Inductor's
Triton kernels load with L2 eviction hints (evict_last where a value is read again, evict_first
where it is read the last time): what such lines leave in L2 may be the state. These variants give
our forward hints of its own:
`wlast`: the parameters' aligned vectors (load_parameter with kChunk 0: the forward's output pass
         where weight and bias are not prefetched, the staged forward's, the backward's aligned rows)
         read with L1::evict_last and an L2 evict_last cache policy (createpolicy.fractional, as
         Triton's evict_last), so that weight and bias stay in L2 while x, residual and the outputs
         stream past;
`stcs`: the residual-add forward's stores of x + residual and the output y in st.global.cs (the
         cache-streaming store: evict first, likely not read again);
`ldcs`: the residual-add forward's first reads of x and residual as whole vectors in ld.global.cs;
`all`:  the three.
    python3 variant_bz.py PROJECT wlast|stcs|ldcs|all"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
ANCHOR = (
    "// Rows whose length is not a multiple of the vector width (kShifted): each row's vectors start at\n"
)
HELPERS = """// Lab BZ: loads and stores with cache hints, for 16-byte vectors (others as before).
template <typename V>
__device__ __forceinline__ V load_evict_last(const V* p) {
  if constexpr (sizeof(V) == 16) {
    uint64_t policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    uint4 r;
    asm("ld.global.L1::evict_last.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
        : "l"(p), "l"(policy));
    V v;
    memcpy(&v, &r, sizeof(v));
    return v;
  } else {
    return load_vector(p);
  }
}
template <typename V>
__device__ __forceinline__ V load_streaming(const V* p) {
  if constexpr (sizeof(V) == 16) {
    const uint4 r = __ldcs(reinterpret_cast<const uint4*>(p));
    V v;
    memcpy(&v, &r, sizeof(v));
    return v;
  } else {
    return load_vector(p);
  }
}
template <typename V>
__device__ __forceinline__ void store_streaming(V* p, const V& v) {
  if constexpr (sizeof(V) == 16) {
    uint4 r;
    memcpy(&r, &v, sizeof(r));
    __stcs(reinterpret_cast<uint4*>(p), r);
  } else {
    *p = v;
  }
}

"""
HELPERS_EDIT = (ANCHOR, HELPERS + ANCHOR)
WLAST = [
    (
        "    core::load_opmath_by_words(load_vector(reinterpret_cast<const P*>(p) + j), out);",
        "    core::load_opmath_by_words(load_evict_last(reinterpret_cast<const P*>(p) + j), out);",
    )
]
STCS = [
    ("    sum_row[j] = items[i];", "    store_streaming(sum_row + j, items[i]);"),
    (
        "        y_row[j] = core::round_to<scalar_t, kVec>(f);",
        "        store_streaming(y_row + j, core::round_to<scalar_t, kVec>(f));",
    ),
]
LDCS = [
    ("      core::load_opmath(*p, out);", "      core::load_opmath(load_streaming(p), out);"),
    (
        "          items[i] = load_vector(x_row + column(pass, i));",
        "          items[i] = load_streaming(x_row + column(pass, i));",
    ),
    (
        "          addends[i] = load_vector(residual_row + column(pass, i));",
        "          addends[i] = load_streaming(residual_row + column(pass, i));",
    ),
]
EDITS = {
    "wlast": [HELPERS_EDIT, *WLAST],
    "stcs": [HELPERS_EDIT, *STCS],
    "ldcs": [HELPERS_EDIT, *LDCS],
    "all": [HELPERS_EDIT, *WLAST, *STCS, *LDCS],
}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
