# ruff: noqa: B023, E501  (lab script: lambdas are called inside the loops that define them)
"""Lab call 10 (lab9.py with other variants and shapes): base = the header of 6f1e762; fix = the
folded columns summed across the grid for a wide bias (fold_columns_kernel); fixnf = fix without
the few-rows path. Lab 9's docstring, for the rest: Lab call 9: the backward at up to 64 rows of N >= 256, which the 512-thread geometry puts in one block
row and backward_cuda therefore sends to the few-rows path (128-thread blocks, no register bound):
`few` (the template at 6f1e762) against `nofew` (the same with the few-rows path turned off,
-DLAB_NO_FEW_ROWS=1). Device time from CUDA-graph replays (lab4.graph_ms), backward alone, in % of
1.5 copies (grad_out and x read, grad_x written); y/grad_x/grad_bias checked against float64 first."""

import json
import os
from multiprocessing import Pool

import lab
import lab4
import torch

CSRC = {"base": "csrc9", "fix": "csrc10", "fixnf": "csrc10"}
lab.VARIANTS = {"base": {}, "fix": {}, "fixnf": dict(LAB_NO_FEW_ROWS=1)}
SHAPES = [
    (48, 100003),
    (33, 70001),
    (4099, 1023),
    (5000, 1022),
    (32768, 1023),
    (4, 4194304),
    (8, 1048576),
    (16, 524288),
    (32, 262144),
    (64, 131072),
    (64, 65536),
    (64, 16384),
]


def build(name):
    os.environ["LAB_CSRC"] = CSRC[name]
    return lab.build(name)


OPS = ("relu", "silu", "tanh")


def main():
    lab.OUT.mkdir(parents=True, exist_ok=True)
    os.makedirs("/tmp/torch_ext", exist_ok=True)
    with Pool(len(lab.VARIANTS)) as pool:
        for name, secs in pool.imap_unordered(build, list(lab.VARIANTS)):
            print(f"built {name} in {secs:.0f} s", flush=True)
    ops = lab.load_all()
    dev = torch.device("cuda")
    torch.manual_seed(0)
    bad = 0
    for shape in SHAPES:
        for dtype in (torch.bfloat16, torch.float32):
            x = torch.randn(shape, device=dev, dtype=dtype)
            b = torch.randn(shape[-1], device=dev, dtype=dtype)
            g = torch.randn(shape, device=dev, dtype=dtype)
            for op in OPS:
                xd = (x.double() + b.double()).requires_grad_()
                (want_gx,) = torch.autograd.grad(lab.REF[op](xd), xd, g.double())
                refs = (want_gx, want_gx.sum(0))
                tol = 1e-4 if dtype == torch.float32 else 2e-2
                for name, o in ops.items():
                    for what, t, ref in zip(
                        ("grad_x", "grad_bias"), getattr(o, f"{op}_bwd")(g, x, b), refs, strict=True
                    ):
                        err = ((t.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
                        if not err <= tol:
                            bad += 1
                            print("MISMATCH", name, op, what, shape, dtype, err)
    print("correctness mismatches:", bad, flush=True)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows = []
    for dtype in (torch.bfloat16, torch.float32):
        for shape in SHAPES:
            numel = shape[0] * shape[1]
            es = torch.tensor([], dtype=dtype).element_size()
            nsets = max(1, -(-3 * l2 // (numel * es * 2)))
            sets = [
                dict(
                    x=torch.randn(shape, device=dev, dtype=dtype),
                    b=torch.randn(shape[1], device=dev, dtype=dtype),
                    g=torch.randn(shape, device=dev, dtype=dtype),
                    dst=torch.empty(shape, device=dev, dtype=dtype),
                )
                for _ in range(nsets)
            ]
            cp = lab4.copy_ms(sets)
            cpg = lab4.graph_ms(lambda s: s["dst"].copy_(s["x"]), sets)
            line = {"shape": shape, "dtype": str(dtype)[6:], "copy_ms": cp, "copy_graph_ms": cpg}
            msg = f"{shape[0]}x{shape[1]} {line['dtype']:8s} copy {cpg * 1e3:6.1f}us (graph)   backward us, % of 1.5 copies"
            for op in OPS:
                for name in ops:
                    bw = getattr(ops[name], f"{op}_bwd")
                    line[f"{op}/{name}"] = lab4.graph_ms(lambda s: bw(s["g"], s["x"], s["b"]), sets)
                msg += f"\n  {op:8s}" + " ".join(
                    f"{n}: {line[f'{op}/{n}'] * 1e3:6.1f}us {150 * cpg / line[f'{op}/{n}']:5.1f}%"
                    for n in ops
                )
            print(msg, flush=True)
            rows.append(line)
            del sets
            torch.cuda.empty_cache()
    (lab.OUT / "lab10.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
