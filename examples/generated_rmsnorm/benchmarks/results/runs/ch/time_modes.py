"""Lab CH's second question (prepared in session 62, 2026-12-01): where the device time of one forward
call differs between ours and torch.compile's, under four conditions. Lab CD had Inductor's
LayerNorm forward at 4096 x 1024 take 0.957 of ours in one call alone (Nsight Compute, caches
flushed) against 0.877 in calls CB's benchmark (CUDA graphs of calls back to back over buffer sets).
For each implementation ("ours": the operator; "compile": torch.compile of its reference, compiled
afresh per dtype as the benchmark does), on inputs drawn as the benchmark draws them
(runner.make_buffer_sets, as many sets as the benchmark takes at the shape), under torch.no_grad:
- benchmark: timing.device_ms over all the sets, the benchmark's own device time (graph replays);
- one set: timing.device_ms over the first set alone (every call reads the same x and parameters,
  which L2 may then hold: 8 MiB of x at 4096 x 1024 in 16 bits);
- alone, flushed: one call at a time between CUDA events, L2 flushed before it (a 256 MiB buffer
  read, so that L2 holds clean lines and the previous call's output has been written back, as
  Nsight Compute's flush leaves it), its launch queued behind torch.cuda._sleep so that the GPU
  does not wait on the host; the median of CALLS;
- alone, warm: the same without the flush (the same set each time).
The alone modes include the events' own overhead and the kernel's launch on the device: the floor
(an empty call between the events, the median of CALLS) is printed, and the alone modes' share is
also given with it taken off both. A mode that cannot be timed (device_ms returns None where a
call cannot be captured in a CUDA graph) prints n/a.
Usage, in the project's folder: python3 time_modes.py OP ROWS COLS DTYPE [DTYPE ...]"""

import statistics
import sys

import torch

sys.path.insert(0, "benchmarks")
from harness import row_norm, runner, timing  # noqa: E402

CALLS = 50
SLEEP_CYCLES = 2_000_000  # about 1 ms at the H200's clocks: time for the host to queue the call


def alone_us(call, buffers, flush: torch.Tensor | None) -> float:
    times = []
    for _ in range(CALLS):
        if flush is not None:
            flush.sum()  # reads 256 MiB: L2 then holds clean lines of it
        torch.cuda._sleep(SLEEP_CYCLES)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call(buffers)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    return statistics.median(times)


def main(op: str, rows: int, cols: int, dtypes: list[str]) -> None:
    family, device = row_norm.FAMILY, torch.device("cuda")
    spec = runner.load_spec(family, op)
    flush = torch.ones(64 * 2**20, dtype=torch.float32, device=device)  # 256 MiB
    print(
        f"{op} {rows}x{cols}, device time of one forward call in us (ours; torch.compile; its share of ours)"
    )
    for name in dtypes:
        dtype = getattr(torch, name)
        per_set = (
            runner.TENSORS_PER_SET + 2 * (len(family.activations(spec)) - 1) + 2 * (family.outputs(spec) - 1)
        )
        count = timing.buffer_set_count(
            per_set * rows * cols * torch.empty((), dtype=dtype).element_size(), device
        )
        torch.manual_seed(0)
        sets = runner.make_buffer_sets(family, spec, (rows, cols), dtype, device, count)
        torch._dynamo.reset()
        impls = {"ours": spec.function, "compile": torch.compile(spec.reference)}
        modes = {}
        with torch.no_grad():
            for impl, fn in impls.items():
                call = runner.forward_call(runner.bind(family, spec, fn))
                call(sets[0])  # compiles torch.compile's graph outside the timing
                for mode, chosen in (("benchmark", sets), ("one set", sets[:1])):
                    ms = timing.device_ms(call, chosen, timing.NORMAL_TIMING, grad=False)
                    modes.setdefault(mode, {})[impl] = None if ms is None else ms * 1000
                modes.setdefault("alone, flushed", {})[impl] = alone_us(call, sets[0], flush)
                modes.setdefault("alone, warm", {})[impl] = alone_us(call, sets[0], None)
            floor = alone_us(lambda buffers: None, sets[0], None)
        print(f"  {name} ({count} buffer sets); the alone modes' floor (an empty call) {floor:.2f} us")
        for mode, us in modes.items():
            ours, compiled = us["ours"], us["compile"]
            if ours is None or compiled is None:
                print(f"    {mode:16} n/a")
                continue
            line = f"    {mode:16} {ours:8.2f} {compiled:8.2f}  {compiled / ours:.3f}"
            if mode.startswith("alone") and ours > floor and compiled > floor:
                line += f"  less the floor {(compiled - floor) / (ours - floor):.3f}"
            print(line)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
