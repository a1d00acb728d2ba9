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
  written), its launch queued behind torch.cuda._sleep so that the GPU does not wait on the host;
  the median of CALLS;
- alone, warm: the same without the flush (the same set each time).
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
            flush.fill_(1)
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
    flush = torch.empty(256 * 2**20, dtype=torch.uint8, device=device)
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
                modes.setdefault("benchmark", {})[impl] = (
                    timing.device_ms(call, sets, timing.NORMAL_TIMING, grad=False) * 1000
                )
                modes.setdefault("one set", {})[impl] = (
                    timing.device_ms(call, sets[:1], timing.NORMAL_TIMING, grad=False) * 1000
                )
                modes.setdefault("alone, flushed", {})[impl] = alone_us(call, sets[0], flush)
                modes.setdefault("alone, warm", {})[impl] = alone_us(call, sets[0], None)
        print(f"  {name} ({count} buffer sets)")
        for mode, us in modes.items():
            print(f"    {mode:16} {us['ours']:8.2f} {us['compile']:8.2f}  {us['compile'] / us['ours']:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
