# ruff: noqa: B023, E501  (lab script: lambdas are called inside the loops that define them)
"""Lab call 11 (lab10.py with other variants and shapes): the criterion for the few-rows backward.
crit = the template's candidate (few-rows path at most 32 kernel rows and at least 2^21 elements);
few = the path wherever the 512-thread geometry has one block row (lab 10's `fix`); nofew = never.
Device time from CUDA-graph replays (lab4.graph_ms), backward alone, in % of 1.5 copies (grad_out
and x read, grad_x written); grad_x/grad_bias checked against float64 first."""

import json
import math
import os
from multiprocessing import Pool

import lab
import lab4
import torch

lab.VARIANTS = {"crit": dict(LAB_FEW=0), "few": dict(LAB_FEW=1), "nofew": dict(LAB_FEW=2)}
SHAPES = [
    (4, 4194304),
    (32, 262144),
    (16, 32768),
    (4, 262144),
    (16, 65536),
    (32, 32768),
    (4, 524288),
    (8, 262144),
    (16, 131072),
    (32, 65536),
    (24, 100003),
    (33, 70001),
    (40, 65536),
    (32, 131072),
    (48, 100003),
    (48, 131072),
    (64, 262144),
]


def build(name):
    os.environ["LAB_CSRC"] = "csrc11"
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
            kvec = 16 // es
            fold = kvec // math.gcd(shape[1], kvec)
            krows = numel // (fold * shape[1])
            line["crit_takes_few"] = krows <= 32 and numel >= 1 << 21
            msg = f"{shape[0]}x{shape[1]} {line['dtype']:8s} copy {cpg * 1e3:6.1f}us (graph)   backward us, % of 1.5 copies; kernel rows {krows}, crit: {'few' if line['crit_takes_few'] else 'nofew'}"
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
    (lab.OUT / "lab11.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
