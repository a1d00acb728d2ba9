# ruff: noqa: B023, E501  (lab script: lambdas are called inside the loops that define them)
"""Lab call 7: the forward with a float32 bias and a half-precision x (what autocast passes), timed as
the benchmark times the device (CUDA-graph replays of >= 8 calls over rotating buffers), next to
torch.compile of the same function (its output rounded to x's dtype, as the operator's is).

Variants: v0 = the header of 95d00f8 (bfloat16 on the row strips, float16 flat at two vectors a
thread); m = the header of 695ef5f (flat at one vector a thread for both, the float32 bias gathered
element by element); new = the candidate (csrc_new: the float32 bias in two 16-byte pieces)."""

import json
import os
from multiprocessing import Pool

import lab
import lab4
import torch

CSRC = {"v0": "csrc_base", "m": "csrc_m", "new": "csrc_new"}
lab.VARIANTS = {name: {} for name in CSRC}
SHAPES = [(32768, 1000), (32768, 1023), (8192, 8192), (32768, 4096), (4096, 1024)]
OPS = ("relu", "silu", "tanh")


def build(name):
    os.environ["LAB_CSRC"] = CSRC[name]
    return lab.build(name)


def check(ops):
    """Every variant against a float64 reference, forward and backward, with a float32 bias."""
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
        for dtype in (torch.bfloat16, torch.float16):
            x = torch.randn(shape, device=dev, dtype=dtype)
            b = torch.randn(shape[-1], device=dev, dtype=torch.float32)
            g = torch.randn(shape, device=dev, dtype=dtype)
            for op in OPS:
                xd = (x.double() + b.double()).requires_grad_()
                want = lab.REF[op](xd)
                (want_gx,) = torch.autograd.grad(want, xd, g.double())
                refs = (want.detach(), want_gx, want_gx.reshape(-1, shape[-1]).sum(0))
                for name, o in ops.items():
                    got = (getattr(o, f"{op}_fwd")(x, b), *getattr(o, f"{op}_bwd")(g, x, b))
                    for what, t, ref in zip(("y", "grad_x", "grad_bias"), got, refs, strict=True):
                        err = ((t.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
                        if not err <= 2e-2:
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
    compiled = {
        op: torch.compile(lambda x, b, r=lab.REF[op]: r(x + b).to(x.dtype), fullgraph=True, dynamic=False)
        for op in OPS
    }
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows = []
    for dtype in (torch.bfloat16, torch.float16):
        for shape in SHAPES:
            numel = shape[0] * shape[1]
            esize = torch.tensor([], dtype=dtype).element_size()
            nsets = max(1, -(-3 * l2 // (numel * esize * 2)))
            sets = [
                dict(
                    x=torch.randn(shape, device=dev, dtype=dtype),
                    b=torch.randn(shape[1], device=dev, dtype=torch.float32),
                    dst=torch.empty(shape, device=dev, dtype=dtype),
                )
                for _ in range(nsets)
            ]
            cp = lab4.copy_ms(sets)
            line = {"shape": shape, "dtype": str(dtype)[6:], "bias_dtype": "float32", "copy_ms": cp}
            msg = f"{shape[0]}x{shape[1]} {line['dtype']:8s} bias float32, copy {cp * 1e3:6.1f}us   forward % of copy"
            for op in OPS:
                for name in ops:
                    f = getattr(ops[name], f"{op}_fwd")
                    line[f"{op}/{name}"] = lab4.graph_ms(lambda s: f(s["x"], s["b"]), sets)
                cf = compiled[op]
                line[f"{op}/compile"] = lab4.graph_ms(lambda s: cf(s["x"], s["b"]), sets)
                msg += f"\n  {op:8s}" + " ".join(
                    f"{n}:{100 * cp / line[f'{op}/{n}']:6.1f}" for n in [*ops, "compile"]
                )
            print(msg, flush=True)
            rows.append(line)
            del sets
            torch.cuda.empty_cache()
    (lab.OUT / "lab7.json").write_text(json.dumps(rows, indent=1))
    print("columns: % of the copy rate (x and y bytes), device time from CUDA-graph replays")


if __name__ == "__main__":
    main()
