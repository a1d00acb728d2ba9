"""Lab T3 (lab T1's t1_kernels.py, Liger-Kernel's call wrapped to return a tuple): which kernels
each implementation runs, and for how long, at the shapes where ours is
slower than a peer (run from a project's root: python3 t1_kernels.py OP OUT.json [LAB_FEW values]).

For each dtype and shape: the benchmark's implementations (ours, eager, torch.compile, Liger-Kernel)
on the benchmark's inputs (benchmarks/harness), checked against float64 as the benchmark checks them;
then, forward (no_grad) and forward+backward: the device time a call from a CUDA graph (the
benchmark's timing.device_ms) and, from torch.profiler over 20 calls, each kernel's mean time a call.
(No knob: the LAB_FEW argument is ignored by the template's build.)"""

import json
import os
import sys
from collections import defaultdict

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1], sys.argv[2]
few_settings = sys.argv[3].split(",") if len(sys.argv) > 3 else ["0"]
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
settings = timing.TimingSettings(warmup=2, repeats=30, min_repeats=5, budget_s=0.2)
CASES = json.loads(os.environ.get("T1_CASES", '[["bfloat16", [16, 4096]], ["float32", [16, 4096]]]'))


def kernels(call, sets, grad):
    with torch.set_grad_enabled(grad):
        for s in sets[:3]:
            call(s)
        torch.cuda.synchronize()
        times = defaultdict(float)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for i in range(20):
                call(sets[i % len(sets)])
            torch.cuda.synchronize()
        for e in prof.events():
            if e.device_type == torch.autograd.DeviceType.CUDA:
                times[e.name] += e.device_time_total / 20
    return {k[:140]: round(v, 2) for k, v in sorted(times.items(), key=lambda kv: -kv[1])}


rows = []
for dtype_name, shape in CASES:
    dtype = getattr(torch, dtype_name)
    shape = tuple(shape)
    per_set = (
        runner.TENSORS_PER_SET + 2 * (len(FAMILY.activations(spec)) - 1) + 2 * (FAMILY.outputs(spec) - 1)
    )
    numel = shape[0] * shape[1]
    count = timing.buffer_set_count(per_set * numel * torch.empty((), dtype=dtype).element_size(), device)
    sets = runner.make_buffer_sets(FAMILY, spec, shape, dtype, device, count)
    eager = runner.bind(FAMILY, spec, spec.reference)
    torch._dynamo.reset()
    impls = {"eager": eager, "compile": runner.bind(FAMILY, spec, torch.compile(spec.reference))}
    impls.update({k: runner.as_tuple(v) for k, v in FAMILY.peers(spec, device).items()})
    expected = runner.evaluate_in_float64(eager, sets[0])
    label = f"{dtype_name} {shape[0]}x{shape[1]}"
    for few in few_settings:
        os.environ["LAB_FEW"] = few
        ours = runner.bind(FAMILY, spec, spec.function)
        runner.check_against_reference(f"ours LAB_FEW={few}", ours, expected, sets[0], label)
        impls_now = {f"ours few={few}": ours, **(impls if few == few_settings[0] else {})}
        for name, fn in impls_now.items():
            if not name.startswith("ours"):
                runner.check_against_reference(name, fn, expected, sets[0], label)
            for pass_name, make, grad in (
                ("forward", runner.forward_call, False),
                ("forward+backward", runner.forward_backward_call, True),
            ):
                call = make(fn)
                dev = timing.device_ms(call, sets, settings, grad=grad)
                row = dict(
                    op=op,
                    case=label,
                    impl=name,
                    pass_=pass_name,
                    device_us=round(dev * 1000, 2),
                    kernels=kernels(call, sets, grad),
                )
                rows.append(row)
                print(
                    f"{op} {label} {pass_name:16} {name:12} {row['device_us']:9.2f} us  "
                    + "; ".join(f"{k[:60]} {v}" for k, v in row["kernels"].items()),
                    flush=True,
                )
    del sets
json.dump(rows, open(out, "w"), indent=1)
