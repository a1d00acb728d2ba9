"""Lab AX's part 3 (session 46): keep5's cooperative backward under DistributedDataParallel with
NCCL all-reducing gradient buckets while the backward runs, the case no test times. The keep grid
takes every block the GPU holds at once, so while an NCCL kernel holds some of the GPU it may wait
for that kernel to end: the overlap of communication and computation would be lost.

Run from a built project's root, with two GPUs: python3 ddp_ax.py OP OUT.json. Two processes (one a
GPU, NCCL) train a stack of LAYERS blocks (tests/suites/common.py's Block: a linear map, the
operator's layer, a linear map; width AX_WIDTH, default 4096) in bfloat16 on AX_ROWS rows a process
(default 8192), under DistributedDataParallel (its default 25 MiB buckets). For each setting of
ROW_NORM_WORKSPACE in the order 1, 0, 1, 0 (read at each call: the workspace, then without it, where
the GPU takes it): a few warm-up steps, then the mean time of AX_STEPS forward+backward steps (CUDA
events about all of them, rank 0; no optimizer step, the gradients zeroed between), and the same
steps without DDP's all-reduce (the model alone, rank 0's GPU, other rank idle) for the norm's own
share. Then from one fixed batch, each setting's gradients on rank 0 after DDP's average: their
largest difference, relative to the gradient's largest magnitude (the two sum the parameters'
gradients in another order; both are float32 sums rounded to bfloat16). Also, from the profiler, the
names of the norm's backward kernels of one step in each setting (the keep kernel's last template
argument, kKeep, true). AX_CPU=1 runs the same steps with gloo on the CPU (a check of this script
where there is no GPU; the setting then changes nothing)."""

import copy
import gc
import json
import os
import sys
import time

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


def model_of(spec, device, dtype):
    torch.manual_seed(0)
    blocks = [Block(spec.layer, WIDTH, spec.residual_add) for _ in range(LAYERS)]
    return nn.Sequential(*blocks).to(device=device, dtype=dtype)


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def timed_steps(model, batch, device):
    """The mean seconds of a forward+backward step (gradients zeroed first), over STEPS after WARMUP."""
    for step in range(WARMUP + STEPS):
        if step == WARMUP:
            synchronize(device)
            start = time.perf_counter()
        model.zero_grad(set_to_none=True)
        model(batch).float().square().mean().backward()
    synchronize(device)
    return (time.perf_counter() - start) / STEPS


def backward_kernels(model, batch):
    """The names of the norm's CUDA backward kernels that one step runs (the profiler's trace)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        model.zero_grad(set_to_none=True)
        model(batch).float().square().mean().backward()
        torch.cuda.synchronize()
    names = {event.name for event in prof.events() if "backward_kernel" in event.name}
    return sorted(names)


def rank_main(rank, world, store, op, out):
    device = torch.device("cpu") if CPU else torch.device("cuda", rank)
    if not CPU:
        torch.cuda.set_device(device)
    backend = "gloo" if CPU else "nccl"
    dist.init_process_group(backend, init_method=f"file://{store}", rank=rank, world_size=world)
    try:
        spec = runner.load_spec(FAMILY, op)
        dtype = torch.float32 if CPU else torch.bfloat16
        model = model_of(spec, device, dtype)
        alone = copy.deepcopy(model)  # (DDP's hooks stay on model's parameters)
        ddp = DistributedDataParallel(model, device_ids=None if CPU else [rank])
        generator = torch.Generator(device="cpu").manual_seed(1 + rank)
        batch = torch.randn(ROWS, WIDTH, generator=generator).to(device=device, dtype=dtype)
        record = dict(op=op, width=WIDTH, rows_a_rank=ROWS, layers=LAYERS, steps=STEPS, runs=[])
        for setting in SETTINGS:
            os.environ[WORKSPACE] = setting
            dist.barrier()
            ddp_s = timed_steps(ddp, batch, device)
            dist.barrier()
            alone_s = timed_steps(alone, batch, device) if rank == 0 else None
            dist.barrier()
            if rank == 0:
                run = {WORKSPACE: setting, "ddp_step_ms": ddp_s * 1e3, "alone_step_ms": alone_s * 1e3}
                record["runs"].append(run)
                print(
                    f"{op} {WORKSPACE}={setting}: DDP step {ddp_s * 1e3:.3f} ms, alone {alone_s * 1e3:.3f} ms"
                )
        grads = {}
        for setting in ("1", "0"):
            os.environ[WORKSPACE] = setting
            ddp.zero_grad(set_to_none=True)
            ddp(batch).float().square().mean().backward()
            grads[setting] = {name: p.grad.float().clone() for name, p in model.named_parameters()}
        worst = max(
            ((grads["1"][n] - grads["0"][n]).abs().max() / grads["1"][n].abs().max().clamp_min(1e-30)).item()
            for n in grads["1"]
        )
        record["largest_relative_gradient_difference"] = worst
        if not CPU:
            record["backward_kernels"] = {}
            for setting in ("1", "0"):
                os.environ[WORKSPACE] = setting
                record["backward_kernels"][setting] = backward_kernels(ddp, batch)
        if rank == 0:
            print(f"{op}: largest gradient difference between the settings {worst:.3g} of the largest one")
            with open(out, "w") as f:
                json.dump(record, f, indent=1)
        del ddp
    finally:
        gc.collect()  # DDP's reducer before the group (tests/suites/common.py's teardown)
        dist.destroy_process_group()


if __name__ == "__main__":
    op, out = sys.argv[1:3]
    if not CPU and torch.cuda.device_count() < 2:
        sys.exit("ddp_ax.py needs two GPUs (AX_CPU=1: gloo on the CPU)")
    store = f"/tmp/ddp_ax_store_{os.getpid()}"
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    mp.spawn(rank_main, args=(2, store, op, out), nprocs=2)
