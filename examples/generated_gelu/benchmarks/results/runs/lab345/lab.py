# ruff: noqa: B007, B023, E501, E702  (lab scripts: lambdas are called inside the loops that define them)
"""Lab: build kernel variants of the bias + activation family and time forward and backward alone."""

import json
import os
import shutil
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils.cpp_extension import load

HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("OUT", "/tmp/labout"))
VARIANTS = {
    "v0": {},
    "a": dict(LAB_HFLAT=1, LAB_HBMINB=0),
    "b": dict(LAB_HFLAT=1, LAB_FU=1, LAB_FEWBT=256),
    "c": dict(LAB_HFLAT=1, LAB_FU=4, LAB_FEWBT=128),
    "d": dict(LAB_HFLAT=1, LAB_FU=1, LAB_FT=256, LAB_HBMINB=0, LAB_FEWBT=256),
    "e": dict(LAB_FRIF=4, LAB_HBMINB=0, LAB_FEWBT=128),
    "f": dict(LAB_FWT=128),
}
if os.environ.get("LAB_VARIANTS"):
    VARIANTS = {k: v for k, v in VARIANTS.items() if k in os.environ["LAB_VARIANTS"].split(",")}


def build(name, fresh=True):
    bd = HERE / f"build_{name}"
    src = bd / "src"
    if fresh and src.exists():
        shutil.rmtree(src)
    if fresh or not src.exists():
        shutil.copytree(HERE / os.environ.get("LAB_CSRC", "csrc"), src)
        for f in src.rglob("*"):
            if f.is_file():
                f.write_text(f.read_text().replace("generated_gelu", f"lab_{name}"))
    flags = ["-O3", "-lineinfo", "--threads=2", f"-DLABNS=lab_{name}"] + [
        f"-D{k}={v}" for k, v in VARIANTS[name].items()
    ]
    t = time.time()
    load(
        name=f"lab_{name}",
        sources=[str(HERE / "lab_ops.cu")],
        extra_include_paths=[str(src)],
        extra_cuda_cflags=flags,
        extra_cflags=["-O3", f"-DLABNS=lab_{name}"],
        build_directory=str(bd),
        is_python_module=False,
        verbose=False,
    )
    return name, time.time() - t


def batch_ms(fn, sets, n=None):
    torch.cuda.synchronize()
    for i in range(3):
        fn(sets[i % len(sets)])
    torch.cuda.synchronize()
    if n is None:
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        fn(sets[0])
        e.record()
        torch.cuda.synchronize()
        n = max(5, min(200, int(3.0 / max(s.elapsed_time(e), 1e-3))))
    res = []
    for _ in range(5):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        for i in range(n):
            fn(sets[i % len(sets)])
        e.record()
        torch.cuda.synchronize()
        res.append(s.elapsed_time(e) / n)
    return statistics.median(res)


REF = {
    "tanh": lambda h: F.gelu(h, approximate="tanh"),
    "erf": F.gelu,
    "silu": F.silu,
    "relu": F.relu,
    "sigmoid": torch.sigmoid,
}


def build_all():
    """Builds every variant in parallel, loads them; returns {variant: its torch.ops namespace}."""
    OUT.mkdir(parents=True, exist_ok=True)
    t = time.time()
    with Pool(len(VARIANTS)) as pool:
        for name, secs in pool.imap_unordered(build, list(VARIANTS)):
            print(f"built {name} in {secs:.0f} s", flush=True)
    print(f"all built in {time.time() - t:.0f} s", flush=True)
    return load_all()


def load_all():
    for name in VARIANTS:
        build(name, fresh=False)  # up to date: loads
    return {name: getattr(torch.ops, f"lab_{name}") for name in VARIANTS}


def main():
    os.makedirs("/tmp/torch_ext", exist_ok=True)
    ops = build_all()
    dev = torch.device("cuda")
    # correctness of every variant against v0 on small odd shapes
    torch.manual_seed(0)
    bad = 0
    for shape in [
        (1, 1),
        (3, 5),
        (2, 1001),
        (7, 1023),
        (5, 4096),
        (3, 8, 33),
        (1, 3),
        (129, 17),
        (4, 65536),
        (32, 4096),
        (3, 100001),
        (2, 4, 50000),
    ]:
        for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
            x = torch.randn(shape, device=dev, dtype=dtype)
            b = torch.randn(shape[-1], device=dev, dtype=dtype)
            g = torch.randn(shape, device=dev, dtype=dtype)
            for op in REF:
                xd = (x.double() + b.double()).requires_grad_()
                want = REF[op](xd)
                (want_gx,) = torch.autograd.grad(want, xd, g.double())
                want_gb = want_gx.reshape(-1, shape[-1]).sum(0)
                want = want.detach()
                for name, o in ops.items():
                    y = getattr(o, f"{op}_fwd")(x, b)
                    gx, gb = getattr(o, f"{op}_bwd")(g, x, b)
                    tol = {torch.float64: 1e-9, torch.float32: 1e-4}.get(dtype, 2e-2)
                    for what, got, ref in (
                        ("y", y, want),
                        ("grad_x", gx, want_gx),
                        ("grad_bias", gb, want_gb),
                    ):
                        err = ((got.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
                        if not err <= tol:
                            bad += 1
                            print("MISMATCH", name, op, what, shape, dtype, err)
    # misaligned view (scalar path)
    x = torch.randn(4097 * 3 + 1, device=dev)[1:].view(3, 4097)
    b = torch.randn(4097, device=dev)
    for name, o in ops.items():
        y = o.tanh_fwd(x, b)
        if not torch.allclose(y, F.gelu(x + b, approximate="tanh"), atol=1e-5, rtol=1e-4):
            bad += 1
            print("MISMATCH misaligned", name)
    print("correctness mismatches:", bad, flush=True)
    half_shapes = [
        (4, 4194304),
        (32, 262144),
        (32768, 1023),
        (32768, 1000),
        (8192, 8192),
        (32768, 4096),
        (4096, 1024),
    ]
    cases = [(s, d) for s in half_shapes for d in (torch.bfloat16, torch.float16)]
    cases += [(s, torch.float32) for s in [(4, 4194304), (32, 262144), (32768, 1000), (8192, 8192)]]
    compile_ops = ("relu", "sigmoid", "silu")
    compile_shapes = {(4, 4194304), (32768, 1023), (32768, 1000), (8192, 8192), (32768, 4096)}
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20)
    rows = []
    for shape, dtype in cases:
        if True:
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
            copy = batch_ms(lambda s: s["dst"].copy_(s["x"]), sets)
            line = {"shape": shape, "dtype": str(dtype).split(".")[1], "copy_ms": copy}
            for op in REF:
                for name, o in ops.items():
                    f, bw = getattr(o, f"{op}_fwd"), getattr(o, f"{op}_bwd")
                    fm = batch_ms(lambda s: f(s["x"], s["b"]), sets)
                    bm = batch_ms(lambda s: bw(s["g"], s["x"], s["b"]), sets)
                    line[f"{op}/{name}"] = (fm, bm)
                f, bw = getattr(ops["v0"], f"{op}_fwd"), getattr(ops["v0"], f"{op}_bwd")
                line[f"{op}/v0again"] = (
                    batch_ms(lambda s: f(s["x"], s["b"]), sets),
                    batch_ms(lambda s: bw(s["g"], s["x"], s["b"]), sets),
                )
                if op in compile_ops and shape in compile_shapes and dtype != torch.float32:
                    torch._dynamo.reset()
                    cf = torch.compile(lambda x, b, r=REF[op]: r(x + b), fullgraph=True)
                    line[f"{op}/compile_fwd"] = batch_ms(lambda s: cf(s["x"], s["b"]), sets)
            rows.append(line)
            msg = [f"{shape[0]}x{shape[1]} {line['dtype']:8s} copy {copy * 1e3:6.1f}us"]
            for op in REF:
                parts = []
                for name in list(ops) + ["v0again"]:
                    fm, bm = line[f"{op}/{name}"]
                    parts.append(
                        f"{name}:{100 * copy / fm:5.1f}/{100 * 1.5 * copy / bm:5.1f}/{100 * 2.5 * copy / (fm + bm):5.1f}"
                    )
                if f"{op}/compile_fwd" in line:
                    parts.append(f"cmp_fwd:{100 * copy / line[f'{op}/compile_fwd']:5.1f}")
                msg.append(f"  {op}: " + " ".join(parts))
            print("\n".join(msg), flush=True)
            del sets
            torch.cuda.empty_cache()
    (OUT / "lab.json").write_text(json.dumps(rows, indent=1))
    print("columns: variant: fwd%copy / bwd%copy(3 elems) / fwd+bwd%copy(5 elems)")


if __name__ == "__main__":
    main()
