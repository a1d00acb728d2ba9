# ruff: noqa: E501
"""Lab BV (session 58, 2026-12-01): does where the tensors lie in memory move the device time of one
kernel? Lab BT had the residual-add LayerNorm's float32 forward at 4096 x 16384 at 321.5 to 322.3 us
in every process that timed it first, and at 290.1 us in the benchmark's tables run, where three
shapes came before it; eager, the copy and the 8192 x 8192 rows did not move. This script times that
forward (the benchmark's timing.device_ms, CUDA graphs, NORMAL_TIMING) on the benchmark's inputs
with x and residual moved to views of one pool at set distances, with the outputs' graph pool placed
after pads of set sizes, and after a prefix of other shapes' allocations, and prints each case's
addresses (offsets in MiB from the lowest) beside its time. Every case is timed twice (the second
sweep in reverse order), so that a drift in time is told from a case's own effect.
Run from the project's root (built in place): python3 place_bv.py OP OUT.json [M N]"""

import json
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1:3]
M, N = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (4096, 16384)
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
dtype = torch.float32
MIB = 1 << 20
TENSOR = M * N * dtype.itemsize
ROW = N * dtype.itemsize


def fresh_set():
    return runner.make_buffer_sets(FAMILY, spec, (M, N), dtype, device, 1)[0]


def time_forward(buffers):
    """Device us a forward, and the outputs' addresses in the graph (its captured calls')."""
    fn = runner.bind(FAMILY, spec, spec.function)
    seen = []

    def call(b):
        b.outputs = fn(b.inputs)
        seen.append(tuple(t.data_ptr() for t in b.outputs))

    with torch.no_grad():
        us = timing.device_ms(call, [buffers], timing.NORMAL_TIMING, grad=False) * 1000
    return us, seen[-timing.MIN_CALLS_PER_GRAPH :]


def addresses(buffers, outputs):
    """x, residual and the graph's outputs (each distinct address once), as byte addresses."""
    named = {name: t.data_ptr() for name, t in buffers.inputs.items() if t.dim() == 2}
    for i, ptr in enumerate(sorted({p for call in outputs for p in call})):
        named[f"out{i}"] = ptr
    return named


def pooled(buffers, gap_bytes, order=("x", "residual")):
    """x and residual copied into views of one pool, the second `gap_bytes` after the first's end."""
    assert gap_bytes % dtype.itemsize == 0
    numel = M * N
    gap = gap_bytes // dtype.itemsize
    pool = torch.empty(2 * numel + gap, dtype=dtype, device=device)
    starts = {order[0]: 0, order[1]: numel + gap}
    inputs = dict(buffers.inputs)
    for name in order:
        view = pool[starts[name] : starts[name] + numel].view(M, N)
        view.copy_(buffers.inputs[name].detach())
        inputs[name] = view.requires_grad_()
    return runner.BufferSet(inputs, buffers.grad_out, inputs["x"], buffers.dst), pool


def prefix(shapes):
    """What a benchmark's earlier shapes leave: their tensors allocated, then freed and released."""
    held = [torch.empty(m * n * 5, dtype=dtype, device=device) for m, n in shapes]
    del held
    torch.cuda.empty_cache()


CASES = []


def case(name):
    def register(fn):
        CASES.append((name, fn))
        return fn

    return register


@case("fresh")
def _():
    b = fresh_set()
    return b, [b]


@case("fresh after a 2 MiB pad")
def _():
    pad = torch.empty(2 * MIB, dtype=torch.uint8, device=device)
    b = fresh_set()
    return b, [b, pad]


@case("fresh after a 130 MiB pad")
def _():
    pad = torch.empty(130 * MIB, dtype=torch.uint8, device=device)
    b = fresh_set()
    return b, [b, pad]


@case("fresh, outputs after a 2 MiB pad")
def _():
    b = fresh_set()
    pad = torch.empty(2 * MIB, dtype=torch.uint8, device=device)
    return b, [b, pad]


@case("fresh, outputs after a 64 MiB pad")
def _():
    b = fresh_set()
    pad = torch.empty(64 * MIB, dtype=torch.uint8, device=device)
    return b, [b, pad]


for gap in (0, 4096, ROW // 2, ROW, 2 * MIB, 2 * MIB + ROW // 2, 64 * MIB, TENSOR // 2, TENSOR):

    @case(f"pool, residual {gap // 1024} KiB after x's end")
    def _(gap=gap):
        b, pool = pooled(fresh_set(), gap)
        return b, [b, pool]


@case("pool, x 0 KiB after residual's end")
def _():
    b, pool = pooled(fresh_set(), 0, order=("residual", "x"))
    return b, [b, pool]


@case("after the tables' first shapes (32768x4096, 8192x8192)")
def _():
    prefix([(32768, 4096), (8192, 8192)])
    b = fresh_set()
    return b, [b]


@case("after 1024x65536")
def _():
    prefix([(1024, 65536)])
    b = fresh_set()
    return b, [b]


rows = []
for sweep, order in ((1, CASES), (2, CASES[::-1])):
    for name, make in order:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        buffers, keep = make()
        us, outputs = time_forward(buffers)
        named = addresses(buffers, outputs)
        low = min(named.values())
        where = {k: round((v - low) / MIB, 4) for k, v in named.items()}
        rows.append({"sweep": sweep, "case": name, "forward_us": round(us, 2), "mib_from_lowest": where})
        print(f"{sweep} {name:55} {us:8.2f} us  {where}", flush=True)
        del buffers, keep
json.dump({"op": op, "shape": [M, N], "dtype": "float32", "rows": rows}, open(out, "w"), indent=1)
