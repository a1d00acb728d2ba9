"""Lab AE (issue 11): how near the far-row test's tolerance each output and gradient comes, drawn
many times. For each of test_rows_whose_first_element_lies_far_from_the_others' shapes and far-column
counts (the suite's own far_first_inputs, run and reference_outputs, imported from the project's
tests/suites/row_norm.py), over SEEDS draws: the largest ratio of an element's error to the test's
allowance (assert_close: float32's tolerance times 10 times the reference's RMS, plus that tolerance
times the element), per output and gradient. A ratio above 1 is a draw the test fails.

Usage: python3 far_margin.py PROJECT_DIR LABEL OUT.jsonl [SEEDS]. PROJECT_DIR: a built LayerNorm
project of `scaffold gpu-bundle` (layer_norm, fused_add_layer_norm). On CUDA where there is one, else
the CPU.
"""

import json
import math
import sys
from pathlib import Path

import torch

project, label, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
seeds = int(sys.argv[4]) if len(sys.argv) > 4 else 20
sys.path[:0] = [str(project / "src"), str(project / "tests")]
from suites import row_norm as suite  # noqa: E402

operator = next(iter(suite.SPECS)) if len(suite.SPECS) == 1 else sys.exit("one operator a project")
spec = suite.SPECS[operator]
device = "cuda" if torch.cuda.is_available() else "cpu"
names = [*(["y", "residual_out"] if spec.residual_add else ["y"])]
names += [f"grad_{n}" for n in (["x", "residual"] if spec.residual_add else ["x"])]
names += ["grad_weight", "grad_bias"] if spec.has_bias else ["grad_weight"]
tolerance = suite.TOLERANCES[torch.float32]
with out.open("a") as f:
    for shape in suite.FAR_FIRST_SHAPES:
        for far_columns in (1, 2):
            worst = dict.fromkeys(names, 0.0)
            for seed in range(seeds):
                torch.manual_seed(seed)
                xs, params, grad_outs = suite.far_first_inputs(spec, shape, device, far_columns=far_columns)
                eps = spec.default_eps
                outputs = suite.run(spec, xs, params, eps)
                grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs)
                expected_outputs, expected_grads = suite.reference_outputs(spec, xs, params, grad_outs, eps)
                actuals = [*outputs, *grads]
                expecteds = [*expected_outputs, *expected_grads]
                for name, actual, expected in zip(names, actuals, expecteds, strict=True):
                    scale = 10 * expected.pow(2).mean().sqrt().item()
                    allowed = tolerance * max(scale, 1e-30) + tolerance * expected.abs()
                    ratio = ((actual.double() - expected).abs() / allowed).max().item()
                    worst[name] = max(worst[name], math.inf if math.isnan(ratio) else ratio)
            row = {
                "label": label,
                "project": project.name,
                "device": device,
                "shape": list(shape),
                "far_columns": far_columns,
                "seeds": seeds,
                "worst": {k: round(v, 4) for k, v in worst.items()},
            }
            f.write(json.dumps(row) + "\n")
            print(
                label,
                project.name,
                shape,
                far_columns,
                " ".join(f"{k} {v:.3f}" for k, v in worst.items()),
                flush=True,
            )
