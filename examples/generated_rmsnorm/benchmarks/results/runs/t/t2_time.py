"""Lab T2: device time a call (CUDA graph, the benchmark's timing.device_ms) of ours, forward and
forward+backward, on the benchmark's inputs, each checked against float64 as the benchmark checks;
torch.compile's and Liger-Kernel's too with --peers. Run from a project's root:
python3 t2_time.py OP LABEL OUT.json [--peers] [--few]  (--few: also ours at LAB_FEW=1 on few rows)"""

import json
import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, label, out = sys.argv[1:4]
peers, few = "--peers" in sys.argv, "--few" in sys.argv
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
settings = timing.TimingSettings(warmup=2, repeats=30, min_repeats=5, budget_s=0.2)
SHAPES = [(32768, 4096), (8192, 8192), (4096, 16384), (1024, 65536), (8192, 4095), (4096, 1024), (16, 4096)]
rows = []
for dtype in (torch.float32, torch.bfloat16):
    for shape in SHAPES:
        name = f"{str(dtype)[6:]} {shape[0]}x{shape[1]}"
        per_set = (
            runner.TENSORS_PER_SET + 2 * (len(FAMILY.activations(spec)) - 1) + 2 * (FAMILY.outputs(spec) - 1)
        )
        count = timing.buffer_set_count(per_set * shape[0] * shape[1] * dtype.itemsize, device)
        sets = runner.make_buffer_sets(FAMILY, spec, shape, dtype, device, count)
        eager = runner.bind(FAMILY, spec, spec.reference)
        expected = runner.evaluate_in_float64(eager, sets[0])
        impls = {"ours": runner.bind(FAMILY, spec, spec.function)}
        if peers:
            torch._dynamo.reset()
            impls["compile"] = runner.bind(FAMILY, spec, torch.compile(spec.reference))
            impls.update({k: runner.as_tuple(v) for k, v in FAMILY.peers(spec, device).items()})
        settings_few = ["0", "1"] if few and shape[0] <= 132 else ["0"]
        for impl, fn in impls.items():
            for f in settings_few if impl == "ours" else ["0"]:
                os.environ["LAB_FEW"] = f
                tag = impl if f == "0" else "ours few"
                runner.check_against_reference(tag, fn, expected, sets[0], name)
                result = dict(op=op, build=label, impl=tag, case=name)
                for pass_name, make, grad in (
                    ("forward", runner.forward_call, False),
                    ("forward+backward", runner.forward_backward_call, True),
                ):
                    result[pass_name] = round(timing.device_ms(make(fn), sets, settings, grad=grad) * 1000, 2)
                rows.append(result)
                print(
                    f"{op} {label:4} {tag:9} {name:18} fwd {result['forward']:9.2f} us  fwd+bwd "
                    f"{result['forward+backward']:9.2f} us",
                    flush=True,
                )
        os.environ["LAB_FEW"] = "0"
        del sets
json.dump(rows, open(out, "w"), indent=1)
