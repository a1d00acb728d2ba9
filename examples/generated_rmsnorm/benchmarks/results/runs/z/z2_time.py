"""Lab Z2 (from lab Z1): device time a call (CUDA graph, the benchmark's timing.device_ms) of ours, forward
and forward+backward, on the benchmark's inputs, each checked against float64 as the benchmark checks, at each
knob setting given (NAME=VALUE,... or 'none'). Run from a project's root:
python3 z2_time.py OP LABEL OUT.json SETTING [SETTING ...]"""

import json
import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, label, out = sys.argv[1:4]
knob_settings = sys.argv[4:]
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
settings = timing.TimingSettings(warmup=2, repeats=30, min_repeats=5, budget_s=0.2)
SHAPES = [(1024, 65536), (2048, 40960), (1024, 65600), (4096, 16384), (8192, 8192), (32768, 4096)]
KNOBS = ("LAB_BULK", "LAB_STAGE_RULE", "LAB_BWD_THREADS")
rows = []
for dtype in (torch.bfloat16, torch.float32):
    for shape in SHAPES:
        name = f"{str(dtype)[6:]} {shape[0]}x{shape[1]}"
        per_set = (
            runner.TENSORS_PER_SET + 2 * (len(FAMILY.activations(spec)) - 1) + 2 * (FAMILY.outputs(spec) - 1)
        )
        count = timing.buffer_set_count(per_set * shape[0] * shape[1] * dtype.itemsize, device)
        sets = runner.make_buffer_sets(FAMILY, spec, shape, dtype, device, count)
        expected = runner.evaluate_in_float64(runner.bind(FAMILY, spec, spec.reference), sets[0])
        fn = runner.bind(FAMILY, spec, spec.function)
        # A first measurement, discarded: lab T4's first runs had the first forward of each case up to 10%
        # slower than the same build's next (the GPU idles while the inputs and the reference are made).
        timing.device_ms(runner.forward_backward_call(fn), sets, settings, grad=True)
        for setting in knob_settings:
            for k in KNOBS:
                os.environ.pop(k, None)
            if setting != "none":
                for kv in setting.split(","):
                    k, v = kv.split("=")
                    os.environ[k] = v
            runner.check_against_reference(f"ours {setting}", fn, expected, sets[0], name)
            result = dict(op=op, build=label, setting=setting, case=name)
            for pass_name, make, grad in (
                ("forward", runner.forward_call, False),
                ("forward+backward", runner.forward_backward_call, True),
            ):
                result[pass_name] = round(timing.device_ms(make(fn), sets, settings, grad=grad) * 1000, 2)
            rows.append(result)
            print(
                f"{op} {label:6} {setting:22} {name:18} fwd {result['forward']:9.2f} us  fwd+bwd "
                f"{result['forward+backward']:9.2f} us",
                flush=True,
            )
        for k in KNOBS:
            os.environ.pop(k, None)
        del sets
json.dump(rows, open(out, "w"), indent=1)
