"""Lab S3 (as run; reformatted after the run for ruff): the RMSNorm example's layer in a
two-process DistributedDataParallel training step (NCCL, one GPU a process): a Linear + RmsNorm +
Linear model under bfloat16 autocast, five steps of SGD. Checks that every rank ends with the same
parameters (bitwise), that they match a single-process run of the same steps on the whole batch
within float32 tolerance, and that the losses are finite."""

import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

from generated_rmsnorm.ops.rms_norm import RmsNorm  # the operator's layer

STEPS, BATCH, WIDTH = 5, 64, 1024


def model(device):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(WIDTH, WIDTH), RmsNorm(WIDTH, eps=1e-6), torch.nn.Linear(WIDTH, 8)
    ).to(device)


def data(device):
    g = torch.Generator().manual_seed(1)
    xs = [torch.randn(BATCH, WIDTH, generator=g) for _ in range(STEPS)]
    ys = [torch.randn(BATCH, 8, generator=g) for _ in range(STEPS)]
    return [x.to(device) for x in xs], [y.to(device) for y in ys]


def train(net, xs, ys, rank=None, world=1):
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    losses = []
    for x, y in zip(xs, ys, strict=True):
        if rank is not None:
            x, y = x.chunk(world)[rank], y.chunk(world)[rank]
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(net(x).float(), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def worker(rank, world, out):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world)
    torch.cuda.set_device(rank)
    device = torch.device("cuda", rank)
    net = DDP(model(device), device_ids=[rank])
    xs, ys = data(device)
    losses = train(net, xs, ys, rank, world)
    flat = torch.cat([p.detach().flatten() for p in net.module.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(world)]
    dist.all_gather(gathered, flat)
    if rank == 0:
        same = all(torch.equal(gathered[0], g) for g in gathered[1:])
        torch.save({"flat": flat.cpu(), "losses": losses, "same": same}, out)
    dist.destroy_process_group()


if __name__ == "__main__":
    out = sys.argv[1]
    mp.spawn(worker, args=(2, out), nprocs=2)
    result = torch.load(out)
    single = model(torch.device("cuda", 0))
    xs, ys = data(torch.device("cuda", 0))
    single_losses = train(single, xs, ys)
    flat = torch.cat([p.detach().flatten() for p in single.parameters()]).cpu()
    diff = (result["flat"] - flat).abs().max().item()
    finite = all(v == v and abs(v) != float("inf") for v in result["losses"])
    print(
        f"ranks bitwise equal: {result['same']}; losses finite: {finite}; DDP losses (rank 0's half) "
        f"{[round(v, 4) for v in result['losses']]}; "
        f"single-process losses {[round(v, 4) for v in single_losses]}; "
        f"largest parameter difference against one process: {diff:.3g}"
    )
    assert result["same"] and finite and diff < 5e-3, "DDP run disagrees"
    print("ddp smoke: ok")
