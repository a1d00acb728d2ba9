"""Lab J4, after lab J3 (modes.py): J3's forward+backward times moved from trial to trial within a
process (188 to 219 us) while the forward held still. Is it where the inputs lie, or where the
outputs and the backward's workspace lie (allocated in each CUDA graph's own memory pool)? Usage (in a
built LayerNorm project): python3 modes2.py DTYPE TRIALS.

Each trial allocates the inputs as modes.py does, then captures the forward+backward in three CUDA
graphs, one after another, each kept alive (so each takes memory of its own for its outputs and
workspace), timing each after its capture; then times the first graph again. Same inputs in all
three: if their times differ, the outputs' or the workspace's place matters.

(After the run: its CUDA-graph timing moved, the same code, to runs/graph_time.py, which it imports.)
"""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runs/, for graph_time
from graph_time import capture, replay_us  # noqa: E402

sys.path.insert(0, "src")
from example_layer_norm.ops.layer_norm import layer_norm  # noqa: E402

dtype = getattr(torch, sys.argv[1])
trials = int(sys.argv[2])
rows, cols = 4096, 16384
device = torch.device("cuda")


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

    graphs, times = [], []
    calls = 2 * len(sets)  # graph_time's two rounds over the sets
    for _ in range(3):
        graph = capture(both, sets)
        graphs.append(graph)
        times.append(replay_us(graph, calls))
    again = replay_us(graphs[0], calls)
    print(
        f"trial {trial} pad {pad_mib:2d} MiB: forward+backward in graphs 1, 2, 3: "
        f"{', '.join(f'{t:6.1f}' for t in times)} us; graph 1 again {again:6.1f} us",
        flush=True,
    )
    del pad, graphs


for trial in range(trials):
    run(trial)
    torch.cuda.empty_cache()
