# ruff: noqa: B023, E501  (a lab script: its lambdas are called inside the loop that defines them)
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
    "noflat": dict(LAB_NOFLAT=1),
    "u2t256": {},
    "u1t256": dict(LAB_FU=1),
    "u1t128": dict(LAB_FU=1, LAB_FT=128),
    "u2t128": dict(LAB_FU=2, LAB_FT=128),
    "u4t128": dict(LAB_FU=4, LAB_FT=128),
    "u1t512": dict(LAB_FU=1, LAB_FT=512),
}
if os.environ.get("LAB_VARIANTS"):
    VARIANTS = {k: v for k, v in VARIANTS.items() if k in os.environ["LAB_VARIANTS"].split(",")}


def build(name, fresh=True):
    bd = HERE / f"build_{name}"
    src = bd / "src"
    if fresh and src.exists():
        shutil.rmtree(src)
    if fresh or not src.exists():
        shutil.copytree(HERE / "csrc", src)
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


REF = {"tanh": lambda h: F.gelu(h, approximate="tanh"), "erf": F.gelu, "silu": F.silu}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    os.makedirs("/tmp/torch_ext", exist_ok=True)
    t = time.time()
    with Pool(len(VARIANTS)) as pool:
        for name, secs in pool.imap_unordered(build, list(VARIANTS)):
            print(f"built {name} in {secs:.0f} s", flush=True)
    print(f"all built in {time.time() - t:.0f} s", flush=True)
    for name in VARIANTS:
        build(name, fresh=False)  # up to date: loads
    ops = {name: getattr(torch.ops, f"lab_{name}") for name in VARIANTS}
    dev = torch.device("cuda")
    # correctness of every variant against v0 on small odd shapes
    torch.manual_seed(0)
    bad = 0
    for shape in [(1, 1), (3, 5), (2, 1001), (7, 1023), (5, 4096), (3, 8, 33), (1, 3), (129, 17)]:
        for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
            x = torch.randn(shape, device=dev, dtype=dtype)
            b = torch.randn(shape[-1], device=dev, dtype=dtype)
            g = torch.randn(shape, device=dev, dtype=dtype)
            for op in REF:
                want = REF[op](x.double() + b.double())
                for name, o in ops.items():
                    y = getattr(o, f"{op}_fwd")(x, b)
                    gx, gb = getattr(o, f"{op}_bwd")(g, x, b)
                    err = ((y.double() - want).abs().max() / want.abs().max().clamp_min(1e-6)).item()
                    tol = {torch.float64: 1e-9, torch.float32: 1e-4}.get(dtype, 2e-2)
                    if not err <= tol:
                        bad += 1
                        print("MISMATCH", name, op, shape, dtype, err)
    # misaligned view (scalar path)
    x = torch.randn(4097 * 3 + 1, device=dev)[1:].view(3, 4097)
    b = torch.randn(4097, device=dev)
    for name, o in ops.items():
        y = o.tanh_fwd(x, b)
        if not torch.allclose(y, F.gelu(x + b, approximate="tanh"), atol=1e-5, rtol=1e-4):
            bad += 1
            print("MISMATCH misaligned", name)
    print("correctness mismatches:", bad, flush=True)
    shapes = [(32768, 1023), (32768, 1000), (8192, 8192), (32768, 4096), (4096, 1024)]
    dtypes = [torch.float32]
    compile_cases = {
        ((8192, 8192), torch.float32),
        ((32768, 4096), torch.float32),
        ((4096, 1024), torch.float32),
        ((32768, 1000), torch.float32),
        ((8192, 8192), torch.float32),
        ((32768, 1000), torch.bfloat16),
        ((32768, 1023), torch.float32),
    }
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20)
    rows = []
    for shape in shapes:
        for dtype in dtypes:
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
                if (shape, dtype) in compile_cases:
                    torch._dynamo.reset()
                    cf = torch.compile(lambda x, b, r=REF[op]: r(x + b), fullgraph=True)
                    line[f"{op}/compile_fwd"] = batch_ms(lambda s: cf(s["x"], s["b"]), sets)
            rows.append(line)
            msg = [f"{shape[0]}x{shape[1]} {line['dtype']:8s} copy {copy * 1e3:6.1f}us"]
            for op in REF:
                parts = []
                for name in ops:
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
