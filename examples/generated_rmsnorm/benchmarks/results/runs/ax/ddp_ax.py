"""Lab AX's part 3 (session 46): keep5's cooperative backward under DistributedDataParallel with
NCCL all-reducing gradient buckets while the backward runs, the case no test times. The keep grid
takes every block the GPU holds at once, so while an NCCL kernel holds some of the GPU it may wait
for that kernel to end: the overlap of communication and computation would be lost.

Run from a built project's root, with two GPUs: python3 ddp_ax.py OP OUT.json. Two processes (one a
GPU, NCCL) train a stack of AX_LAYERS blocks (default 8; tests/suites/common.py's Block: a linear
map, the operator's layer, a linear map; width AX_WIDTH, default 4096) in bfloat16 on AX_ROWS rows a
process (default 8192), under DistributedDataParallel (its default 25 MiB buckets). For each setting
of ROW_NORM_WORKSPACE in the order 1, 0, 1, 0 (read at each call: the workspace, then without it,
where the GPU takes it), rank 0 records:
- the time of each of AX_STEPS forward+backward steps after a few warm-up steps (CUDA events about
  each step; no optimizer step, the gradients zeroed between), their median and mean, under DDP;
- the same without DDP (a copy of the model, rank 0's GPU, the other rank waiting);
- from the profiler, one DDP step's kernels: the norm's backward kernels (backward_kernel, and
  sum_rows_kernel, the workspace's second kernel) with their durations; for each, the NCCL kernel
  time that overlaps it, and the gap since the last kernel other than NCCL's ended (a cooperative
  launch that waits for room on the GPU shows as a gap); the step's trace in OUT's folder as
  ddp_trace_OP_SETTING_RUN.json.
Each setting's record is written to OUT as it ends, so a run cut short keeps what it measured. Then
from one fixed batch, each setting's gradients on rank 0 after DDP's average: their largest
difference, relative to the gradient's largest magnitude (the two sum the parameters' gradients in
another order; both are float32 sums rounded to bfloat16). AX_CPU=1 runs the steps with gloo on the
CPU, timed by the host's clock and without the profiler (a check of this script where there is no
GPU; the setting then changes nothing)."""

import copy
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "tests")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402
from suites.common import Block  # noqa: E402

WORKSPACE = "ROW_NORM_WORKSPACE"
CPU = os.environ.get("AX_CPU") == "1"
WIDTH = int(os.environ.get("AX_WIDTH", 4096))
ROWS = int(os.environ.get("AX_ROWS", 8192))
LAYERS = int(os.environ.get("AX_LAYERS", 8))
STEPS = int(os.environ.get("AX_STEPS", 20))
WARMUP = 3
SETTINGS = ["1", "0", "1", "0"]
NORM_KERNELS = ("backward_kernel", "sum_rows_kernel")


def model_of(spec, device, dtype):
    torch.manual_seed(0)
    blocks = [Block(spec.layer, WIDTH, spec.residual_add) for _ in range(LAYERS)]
    return nn.Sequential(*blocks).to(device=device, dtype=dtype)


def step(model, batch):
    model.zero_grad(set_to_none=True)
    model(batch).float().square().mean().backward()


def step_times_ms(model, batch):
    """Each step's milliseconds, AX_STEPS steps after WARMUP (CUDA events about each; the host's clock
    on the CPU)."""
    for _ in range(WARMUP):
        step(model, batch)
    times = []
    for _ in range(STEPS):
        if CPU:
            start = time.perf_counter()
            step(model, batch)
            times.append((time.perf_counter() - start) * 1e3)
            continue
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        step(model, batch)
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end))
    return times


def summary(times):
    return {"median_ms": statistics.median(times), "mean_ms": statistics.fmean(times), "step_ms": times}


def profiled_step(model, batch, trace):
    """One step under the profiler: the norm's backward kernels, each with its duration, the NCCL
    kernel time overlapping it and the gap since the last other kernel ended (microseconds); the
    trace written to `trace` unless it is None."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step(model, batch)
        torch.cuda.synchronize()
    if trace is not None:
        prof.export_chrome_trace(str(trace))
    kernels = sorted(
        (e.time_range.start, e.time_range.end, e.name)
        for e in prof.events()
        if e.device_type == torch.autograd.DeviceType.CUDA
    )
    nccl = [(s, e) for s, e, name in kernels if "nccl" in name.lower()]
    others = [(s, e) for s, e, name in kernels if "nccl" not in name.lower()]
    norm = []
    for start, end, name in kernels:
        if not any(k in name for k in NORM_KERNELS):
            continue
        before = [e for s, e in others if e <= start]
        norm.append(
            {
                "name": name.split("(")[0],
                # (backward_kernel's last template argument is kKeep)
                "keep": "backward_kernel" in name and name.split(">(")[0].rstrip().endswith("true"),
                "us": end - start,
                "nccl_overlap_us": sum(max(0, min(end, e) - max(start, s)) for s, e in nccl),
                "gap_us": start - max(before) if before else None,
            }
        )
    return norm


def rank_main(rank, world, store, op, out):
    device = torch.device("cpu") if CPU else torch.device("cuda", rank)
    options = {}
    if not CPU:
        torch.cuda.set_device(device)
        options["device_id"] = device
    backend = "gloo" if CPU else "nccl"
    dist.init_process_group(backend, init_method=f"file://{store}", rank=rank, world_size=world, **options)
    ddp = None
    try:
        spec = runner.load_spec(FAMILY, op)
        dtype = torch.float32 if CPU else torch.bfloat16
        model = model_of(spec, device, dtype)
        alone = copy.deepcopy(model)  # (DDP's hooks stay on model's parameters)
        ddp = DistributedDataParallel(model, device_ids=None if CPU else [rank])
        generator = torch.Generator(device="cpu").manual_seed(1 + rank)
        batch = torch.randn(ROWS, WIDTH, generator=generator).to(device=device, dtype=dtype)
        record = dict(op=op, width=WIDTH, rows_a_rank=ROWS, layers=LAYERS, steps=STEPS, runs=[])
        for index, setting in enumerate(SETTINGS):
            os.environ[WORKSPACE] = setting
            dist.barrier()
            ddp_times = step_times_ms(ddp, batch)
            dist.barrier()
            alone_times = step_times_ms(alone, batch) if rank == 0 else None
            dist.barrier()
            trace = Path(out).parent / f"ddp_trace_{op}_{setting}_{index}.json" if rank == 0 else None
            norm = None if CPU else profiled_step(ddp, batch, trace)  # (both ranks: DDP's collectives)
            if rank == 0:
                run = {WORKSPACE: setting, "ddp": summary(ddp_times), "alone": summary(alone_times)}
                run["norm_kernels"] = norm
                record["runs"].append(run)
                Path(out).write_text(json.dumps(record, indent=1))
                line = f"DDP step {run['ddp']['median_ms']:.3f} ms, alone {run['alone']['median_ms']:.3f} ms"
                if norm:
                    line += f", norm backward kernels {sum(k['us'] for k in norm):.1f} us"
                    line += f" (kept rows: {sum(k['keep'] for k in norm)} of {len(norm)})"
                    line += f", NCCL beside them {sum(k['nccl_overlap_us'] for k in norm):.1f} us"
                    line += f", largest gap {max((k['gap_us'] or 0) for k in norm):.1f} us"
                print(f"{op} {WORKSPACE}={setting}: medians: {line}", flush=True)
        grads = {}
        for setting in ("1", "0"):
            os.environ[WORKSPACE] = setting
            step(ddp, batch)
            grads[setting] = {name: p.grad.float().clone() for name, p in model.named_parameters()}
        worst = max(
            ((grads["1"][n] - grads["0"][n]).abs().max() / grads["1"][n].abs().max().clamp_min(1e-30)).item()
            for n in grads["1"]
        )
        if rank == 0:
            record["largest_relative_gradient_difference"] = worst
            Path(out).write_text(json.dumps(record, indent=1))
            print(f"{op}: largest gradient difference between the settings {worst:.3g} of the largest one")
    finally:
        ddp = None  # DDP's reducer before the group (tests/suites/common.py's teardown)
        gc.collect()
        dist.destroy_process_group()


if __name__ == "__main__":
    op, out = sys.argv[1:3]
    if not CPU and torch.cuda.device_count() < 2:
        sys.exit("ddp_ax.py needs two GPUs (AX_CPU=1: gloo on the CPU)")
    store = f"/tmp/ddp_ax_store_{os.getpid()}"
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    mp.spawn(rank_main, args=(2, store, op, out), nprocs=2)
