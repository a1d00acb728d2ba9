# ruff: noqa: E501
"""Lab BZ's probes (issue 11; session 59, 2026-12-01): what puts our residual-add LayerNorm's float32
forward at 4096 x 16384 in the fast state that lab BY found after torch.compile's per-call rounds
(287.5 to 288.7 us of device time, against 320.9 to 321.5 before)? In one process, after each step,
ours' forward on the device three times (timing.device_ms with the benchmark's NORMAL_TIMING, as
lab BY's steps_by.py):
B_PROBE=triton: start; `junk_normal`: a Triton kernel reads a 1 GiB buffer of its own once (no
  hint); `junk_last`: the same with eviction_policy="evict_last" (what Inductor gives a value it reads
  again); `params_last`: weight and bias read so once; `inputs_last`: x and residual read so once;
  `junk_last_20`: the junk buffer so 20 times.
B_PROBE=compile: start; `compile`: torch.compile of the reference compiled and checked (as the
  benchmark; one call on these tensors); then its forward called 10, 100 and 1000 more times on the
  same tensors (`calls_10`, `calls_100`, `calls_1000`), counted cumulatively. TORCH_LOGS=output_code
  in the environment puts Inductor's kernel source in the log.
Run from the project's root (built in place): python3 probe_bz.py OP OUT.json"""

import json
import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1:3]
M, N = (int(d) for d in os.environ.get("B_SHAPE", "4096x16384").split("x"))
probe = os.environ.get("B_PROBE", "triton")
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
label = f"float32 {M}x{N}"
sets = runner.make_buffer_sets(FAMILY, spec, (M, N), torch.float32, device, 1)
expected = runner.evaluate_in_float64(runner.bind(FAMILY, spec, spec.reference), sets[0])
ours = runner.bind(FAMILY, spec, spec.function)
runner.check_against_reference("ours", ours, expected, sets[0], label)
ours_forward = runner.forward_call(ours)


def ours_on_device() -> list[float]:
    with torch.no_grad():
        return [
            round(timing.device_ms(ours_forward, sets, timing.NORMAL_TIMING, grad=False) * 1000, 2)
            for _ in range(3)
        ]


steps: list[tuple[str, object]] = [("start", lambda: None)]
if probe == "triton":
    import triton
    import triton.language as tl

    @triton.jit
    def touch(p, partial, n, BLOCK: tl.constexpr, LAST: tl.constexpr):
        offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        if LAST:
            v = tl.load(p + offsets, mask=offsets < n, other=0.0, eviction_policy="evict_last")
        else:
            v = tl.load(p + offsets, mask=offsets < n, other=0.0)
        tl.store(partial + tl.program_id(0), tl.sum(v, axis=0))

    def read(t: torch.Tensor, last: bool, times: int = 1) -> None:
        flat = t.detach().reshape(-1)
        block = 4096
        grid = (triton.cdiv(flat.numel(), block),)
        partial = torch.empty(grid[0], device=device, dtype=torch.float32)
        for _ in range(times):
            touch[grid](flat, partial, flat.numel(), BLOCK=block, LAST=last)
        torch.cuda.synchronize()

    junk = torch.randn(1 << 28, device=device)  # 1 GiB of float32
    inputs = sets[0].inputs
    steps += [
        ("junk_normal", lambda: read(junk, False)),
        ("junk_last", lambda: read(junk, True)),
        ("params_last", lambda: (read(inputs["weight"], True), read(inputs["bias"], True))),
        ("inputs_last", lambda: (read(inputs["x"], True), read(inputs["residual"], True))),
        ("junk_last_20", lambda: read(junk, True, 20)),
    ]
else:
    compiled: dict[str, object] = {}

    def compile_step() -> None:
        torch._dynamo.reset()
        compiled["impl"] = runner.bind(FAMILY, spec, torch.compile(spec.reference))
        runner.check_against_reference("torch.compile(eager)", compiled["impl"], expected, sets[0], label)
        compiled["forward"] = runner.forward_call(compiled["impl"])

    def calls(n: int) -> None:
        with torch.no_grad():
            for _ in range(n):
                compiled["forward"](sets[0])
        torch.cuda.synchronize()

    steps += [
        ("compile", compile_step),
        ("calls_10", lambda: calls(10)),
        ("calls_100", lambda: calls(90)),
        ("calls_1000", lambda: calls(900)),
    ]

result = {"op": op, "shape": [M, N], "dtype": "float32", "probe": probe, "steps": []}
for name, run in steps:
    run()
    us = ours_on_device()
    result["steps"].append({"step": name, "device_us": us})
    print(f"{name:13} device {us}", flush=True)
json.dump(result, open(out, "w"), indent=1)
