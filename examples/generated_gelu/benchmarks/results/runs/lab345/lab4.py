# ruff: noqa: B007, B023, E501, E702  (lab scripts: lambdas are called inside the loops that define them)
"""Lab call 4: forward only, float16 and bfloat16, timed as the benchmark times the device (CUDA-graph
replays of >= 8 calls over rotating buffers), variants v0 / a / f of lab.py next to torch.compile."""

import json
import math
import os
import statistics
import sys

import torch

os.environ.setdefault("LAB_VARIANTS", "v0,a,f")
import lab  # noqa: E402


def graph_ms(fn, sets, reps=20):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for s in sets:
            fn(s)
    torch.cuda.current_stream().wait_stream(side)
    rounds = math.ceil(8 / len(sets))
    g = torch.cuda.CUDAGraph()
    outs = []
    with torch.cuda.graph(g):
        for _ in range(rounds):
            for s in sets:
                outs.append(fn(s))
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()
    res = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        res.append(a.elapsed_time(b) / (rounds * len(sets)))
    del outs, g
    return statistics.median(res)


def copy_ms(sets):
    for _ in range(5):
        sets[0]["dst"].copy_(sets[0]["x"])
    res = []
    for _ in range(5):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record()
        for i in range(40):
            s = sets[i % len(sets)]
            s["dst"].copy_(s["x"])
        b.record()
        torch.cuda.synchronize()
        res.append(a.elapsed_time(b) / 40)
    return statistics.median(res)


LAB4_SHAPES = [(32768, 1000), (32768, 1023), (8192, 8192), (32768, 4096)]


def main(shapes=LAB4_SHAPES, out_name="lab4.json"):
    ops = lab.build_all()
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows = []
    for dtype in (torch.bfloat16, torch.float16):
        for shape in shapes:
            numel = shape[0] * shape[1]
            esize = torch.tensor([], dtype=dtype).element_size()
            nsets = max(1, -(-3 * l2 // (numel * esize * 2)))
            sets = [
                dict(
                    x=torch.randn(shape, device=dev, dtype=dtype),
                    b=torch.randn(shape[1], device=dev, dtype=dtype),
                    dst=torch.empty(shape, device=dev, dtype=dtype),
                )
                for _ in range(nsets)
            ]
            cp = copy_ms(sets)
            line = {"shape": shape, "dtype": str(dtype)[6:], "copy_ms": cp}
            msg = f"{shape[0]}x{shape[1]} {line['dtype']:8s} copy {cp * 1e3:6.1f}us"
            for op in ("relu", "sigmoid", "silu", "tanh"):
                parts = []
                for name, o in ops.items():
                    f = getattr(o, f"{op}_fwd")
                    line[f"{op}/{name}"] = graph_ms(lambda s: f(s["x"], s["b"]), sets)
                torch._dynamo.reset()
                cf = torch.compile(lambda x, b, r=lab.REF[op]: r(x + b), fullgraph=True)
                line[f"{op}/compile"] = graph_ms(lambda s: cf(s["x"], s["b"]), sets)
                for name in list(ops) + ["compile"]:
                    parts.append(f"{name}:{100 * cp / line[f'{op}/{name}']:6.1f}")
                msg += f"\n  {op:8s}" + " ".join(parts)
            print(msg, flush=True)
            rows.append(line)
            del sets
            torch.cuda.empty_cache()
    (lab.OUT / out_name).write_text(json.dumps(rows, indent=1))
    print("columns: % of the copy rate (x and y bytes), device time from CUDA-graph replays")


def ncu_target():
    """One call of each forward, for ncu (after a warm-up)."""
    ops = lab.load_all()
    dev = torch.device("cuda")
    for dtype, shape in [
        (torch.bfloat16, (32768, 1000)),
        (torch.float16, (32768, 1000)),
        (torch.bfloat16, (32768, 4096)),
    ]:
        x = torch.randn(shape, device=dev, dtype=dtype)
        b = torch.randn(shape[1], device=dev, dtype=dtype)
        cf = torch.compile(lambda x, b: torch.relu(x + b), fullgraph=True)
        cf(x, b)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_push(f"{dtype} {shape}")
        for name, o in ops.items():
            o.relu_fwd(x, b)
        cf(x, b)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        torch._dynamo.reset()


if __name__ == "__main__":
    if sys.argv[1:] == ["ncu"]:
        ncu_target()
    else:
        main()
