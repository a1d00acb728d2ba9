"""Host path of the host-bound cells (call V): per-call times of ours, eager and compile, three ways.

A. the benchmark's own measure_ms, 8 times over (each already interleaved in 5 rounds);
B. host throughput: 400 calls back to back timed with perf_counter, one synchronize at the end,
   9 interleaved rounds (the device time per call is far below the host time at these shapes);
C. torch.profiler: self CPU time per op over 100 forward+backward calls.
"""

import statistics
import sys
import time
from pathlib import Path

import torch

EX = Path(__file__).resolve().parent / "example"
sys.path.insert(0, str(EX / "benchmarks"))
sys.path.insert(0, str(EX / "src"))
from harness import bias_activation as ba  # noqa: E402
from harness import timing  # noqa: E402

spec = ba.load_spec("fused_bias_gelu")
dev = torch.device("cuda")
print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name())
CELLS = (((4096, 1024), torch.float32), ((4096, 1024), torch.bfloat16), ((16, 1024), torch.float32))
for shape, dtype in CELLS:
    torch._dynamo.reset()
    impls = {"ours": spec.function, "eager": spec.reference, "compile": torch.compile(spec.reference)}
    count = timing.buffer_set_count(ba.TENSORS_PER_SET * shape[0] * shape[1] * dtype.itemsize, dev)
    sets = ba.make_buffer_sets(shape, dtype, dev, count)
    calls = {k: ba.forward_backward_call(f) for k, f in impls.items()}
    for c in calls.values():
        for _ in range(20):
            c(sets[0])
    print(f"\n== {dtype} {shape}, {count} buffer sets")
    a = {k: [] for k in calls}
    for _ in range(8):
        r = timing.measure_ms(calls, sets, dev, timing.NORMAL_TIMING, grad=True)
        for k, v in r.items():
            a[k].append(v * 1e3)
    for k, v in a.items():
        runs = " ".join(f"{x:6.1f}" for x in v)
        print(f"A {k:8s} us/call runs: {runs}  median {statistics.median(v):6.1f}")
    b = {k: [] for k in calls}
    for _ in range(9):
        for k, c in calls.items():
            torch.cuda.synchronize()
            t = time.perf_counter()
            for i in range(400):
                c(sets[i % len(sets)])
            torch.cuda.synchronize()
            b[k].append((time.perf_counter() - t) / 400 * 1e6)
    for k, v in b.items():
        runs = " ".join(f"{x:6.1f}" for x in v)
        print(f"B {k:8s} us/call rounds: {runs}  median {statistics.median(v):6.1f}")
    med = {k: statistics.median(v) for k, v in b.items()}
    print(f"B eager/ours {med['eager'] / med['ours']:.3f}  compile/ours {med['compile'] / med['ours']:.3f}")
    if shape == (4096, 1024) and dtype == torch.float32:
        from torch.profiler import ProfilerActivity, profile

        for k, c in calls.items():
            with profile(activities=[ProfilerActivity.CPU]) as prof:
                for i in range(100):
                    c(sets[i % len(sets)])
                torch.cuda.synchronize()
            print(f"\n-- profile {k} (100 calls)")
            averages = prof.key_averages()
            table = averages.table(sort_by="self_cpu_time_total", row_limit=14, max_name_column_width=50)
            print(table)
