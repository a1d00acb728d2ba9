"""Lab J3: LayerNorm's 16-bit forward+backward at 4096 x 16384 took about 193 us in some benchmark runs
and 205-227 us in others, the same build (checks P4, labs J1 and J2). Does the time follow where the
tensors lie in memory? Usage (in a built LayerNorm project): python3 modes.py DTYPE TRIALS.

Each trial allocates a pad of (22 x trial) mod 64 MiB first (none in trial 0), then three sets of
x and grad_out (rows x cols each, together more than L2, as the benchmark rotates them), the weight
and bias; captures 2 rounds of forward+backward over the sets (torch.autograd.grad) in a CUDA graph and
replays it 20 times between CUDA events, and prints the median device time of one forward+backward,
and of one forward (captured alike), with where the first set's x and grad_out lie and the grad_x of
one more call outside the graph (addresses modulo 2 MiB, in KiB, and the 2 MiB block's number: the
caching allocator gives tensors this large whole 2 MiB blocks, so the offset is 0).

(After the run: its CUDA-graph timing moved, the same code, to runs/graph_time.py, which it
imports; the function was named graph_ms, but gave microseconds.)
"""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runs/, for graph_time
from graph_time import graph_us  # noqa: E402

sys.path.insert(0, "src")
from example_layer_norm.ops.layer_norm import layer_norm  # noqa: E402

dtype = getattr(torch, sys.argv[1])
trials = int(sys.argv[2])
rows, cols = 4096, 16384
device = torch.device("cuda")


def where(t):
    return f"{t.data_ptr() % 2**21 // 1024:5d}K/{t.data_ptr() >> 21:#x}"


def run(trial: int) -> None:
    pad_mib = (trial * 22) % 64
    pad = torch.empty(pad_mib * 2**20 + 256, dtype=torch.uint8, device=device) if pad_mib else None
    sets = [tuple(torch.randn(rows, cols, device=device, dtype=dtype) for _ in range(2)) for _ in range(3)]
    weight = torch.randn(cols, device=device, dtype=dtype, requires_grad=True)
    bias = torch.randn(cols, device=device, dtype=dtype, requires_grad=True)

    def both(s):
        x = s[0].requires_grad_()
        y = layer_norm(x, weight, bias)
        return torch.autograd.grad(y, (x, weight, bias), s[1])

    def forward(s):
        with torch.no_grad():
            return layer_norm(s[0], weight, bias)

    fb = graph_us(both, sets)
    f = graph_us(forward, sets)
    grad_x = both(sets[0])[0]
    print(
        f"trial {trial} pad {pad_mib:2d} MiB: forward+backward {fb:6.1f} us, forward {f:5.1f} us; "
        f"x {where(sets[0][0])} grad_out {where(sets[0][1])} grad_x {where(grad_x)}",
        flush=True,
    )
    del pad


for trial in range(trials):
    run(trial)
    torch.cuda.empty_cache()
