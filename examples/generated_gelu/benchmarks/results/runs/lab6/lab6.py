# ruff: noqa: B023, B905, E501  (lab script: lambdas are called inside the loops that define them)
"""Lab call 6: the bias vector load and the bfloat16 conversion (csrc6, lab_6_header.diff) against the
committed kernels (csrc_base), forward and backward, every dtype, timed as the benchmark times the
device (CUDA-graph replays of >= 8 calls over rotating buffers), next to torch.compile.

Variants: v0 = committed header; fix = csrc6 with the flat forward for every dtype (two vectors a
thread); fix1 = the same with one vector a thread; fixs = csrc6 with bfloat16 on the row strips."""

import json
import os
import sys
from multiprocessing import Pool

import lab
import lab4
import torch

CSRC = {"v0": "csrc_base", "fix": "csrc6", "fix1": "csrc6", "fixs": "csrc6"}
lab.VARIANTS = {"v0": {}, "fix": {}, "fix1": dict(LAB_FLATV=1), "fixs": dict(LAB_BF16_STRIPS=1)}
SHAPES = [(32768, 1000), (32768, 1023), (8192, 8192), (32768, 4096), (4096, 1024), (4, 4194304), (32, 262144)]
OPS = ("relu", "sigmoid", "silu", "tanh", "erf")


def build(name):
    os.environ["LAB_CSRC"] = CSRC[name]
    return lab.build(name)


def check(ops):
    """Every variant against a float64 reference, forward and backward, on odd small shapes."""
    dev = torch.device("cuda")
    torch.manual_seed(0)
    bad = 0
    for shape in [
        (1, 1),
        (3, 5),
        (2, 1001),
        (7, 1023),
        (5, 4096),
        (3, 8, 33),
        (129, 17),
        (4, 65536),
        (3, 100001),
    ]:
        for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
            x = torch.randn(shape, device=dev, dtype=dtype)
            b = torch.randn(shape[-1], device=dev, dtype=dtype)
            g = torch.randn(shape, device=dev, dtype=dtype)
            for op in OPS:
                xd = (x.double() + b.double()).requires_grad_()
                want = lab.REF[op](xd)
                (want_gx,) = torch.autograd.grad(want, xd, g.double())
                refs = (want.detach(), want_gx, want_gx.reshape(-1, shape[-1]).sum(0))
                tol = {torch.float64: 1e-9, torch.float32: 1e-4}.get(dtype, 2e-2)
                for name, o in ops.items():
                    got = (getattr(o, f"{op}_fwd")(x, b), *getattr(o, f"{op}_bwd")(g, x, b))
                    for what, t, ref in zip(("y", "grad_x", "grad_bias"), got, refs):
                        err = ((t.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
                        if not err <= tol:
                            bad += 1
                            print("MISMATCH", name, op, what, shape, dtype, err)
    print("correctness mismatches:", bad, flush=True)


def main():
    lab.OUT.mkdir(parents=True, exist_ok=True)
    os.makedirs("/tmp/torch_ext", exist_ok=True)
    with Pool(len(lab.VARIANTS)) as pool:
        for name, secs in pool.imap_unordered(build, list(lab.VARIANTS)):
            print(f"built {name} in {secs:.0f} s", flush=True)
    ops = lab.load_all()
    check(ops)
    torch._dynamo.config.cache_size_limit = 256
    # torch.compile of every operator but the tanh gelu (which it runs at 62 to 78% of copy, lab 5)
    compiled = {
        op: torch.compile(lambda x, b, r=lab.REF[op]: r(x + b), fullgraph=True, dynamic=False)
        for op in OPS
        if op != "tanh"
    }
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows = []
    for dtype in (torch.bfloat16, torch.float16, torch.float32):
        names = [n for n in ops if n != "fixs" or dtype == torch.bfloat16]
        for shape in SHAPES:
            numel = shape[0] * shape[1]
            esize = torch.tensor([], dtype=dtype).element_size()
            nsets = max(1, -(-3 * l2 // (numel * esize * 2)))
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
            line = {"shape": shape, "dtype": str(dtype)[6:], "copy_ms": cp}
            msg = f"{shape[0]}x{shape[1]} {line['dtype']:8s} copy {cp * 1e3:6.1f}us   fwd %copy | bwd %copy(1.5x copy)"
            for op in OPS:
                for name in names:
                    f, bw = getattr(ops[name], f"{op}_fwd"), getattr(ops[name], f"{op}_bwd")
                    line[f"{op}/{name}"] = lab4.graph_ms(lambda s: f(s["x"], s["b"]), sets)
                    line[f"{op}/{name}/bwd"] = lab4.graph_ms(lambda s: bw(s["g"], s["x"], s["b"]), sets)
                if op in compiled:
                    cf = compiled[op]
                    line[f"{op}/compile"] = lab4.graph_ms(lambda s: cf(s["x"], s["b"]), sets)
                fw = " ".join(
                    f"{n}:{100 * cp / line[f'{op}/{n}']:6.1f}"
                    for n in [*names, "compile"]
                    if f"{op}/{n}" in line
                )
                bw_ = " ".join(f"{n}:{150 * cp / line[f'{op}/{n}/bwd']:6.1f}" for n in names)
                msg += f"\n  {op:8s}{fw} | {bw_}"
            print(msg, flush=True)
            rows.append(line)
            del sets
            torch.cuda.empty_cache()
    (lab.OUT / "lab6.json").write_text(json.dumps(rows, indent=1))
    print(
        "columns: % of the copy rate (x and y bytes; backward: 1.5 copies), device time from CUDA-graph replays"
    )


def ncu_target():
    """One call of each relu forward (v0, fix, fix1, compile) per case, for ncu, after a warm-up."""
    ops = lab.load_all()
    dev = torch.device("cuda")
    for dtype, shape in [
        (torch.bfloat16, (32768, 1000)),
        (torch.bfloat16, (32768, 1023)),
        (torch.float32, (32768, 1000)),
    ]:
        x = torch.randn(shape, device=dev, dtype=dtype)
        b = torch.randn(shape[1], device=dev, dtype=dtype)
        cf = torch.compile(lambda x, b: torch.relu(x + b), fullgraph=True, dynamic=False)
        cf(x, b)
        torch.cuda.synchronize()
        for name in ("v0", "fix", "fix1"):
            ops[name].relu_fwd(x, b)
        cf(x, b)
        torch.cuda.synchronize()
        torch._dynamo.reset()


if __name__ == "__main__":
    if sys.argv[1:] == ["ncu"]:
        ncu_target()
    else:
        main()
