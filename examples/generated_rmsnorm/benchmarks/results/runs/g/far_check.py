"""far_check.py OPERATOR [DEVICE]: run from a rendered project's folder (after its build). For the
shapes of test_rows_whose_first_element_lies_far_from_the_others (every other row's first element
1000, float32), each output's and gradient's largest error over the RMS of its float64 reference.
(Check G1 ran it with the inputs written out here; the suite's far_first_inputs now makes them.)"""

import sys

import torch

sys.path[:0] = [".", "src"]
from tests.suites import row_norm as suite  # noqa: E402

operator, device = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "cuda"
spec = suite.SPECS[operator]
names = ["out", "residual_out"][: 2 if spec.residual_add else 1] + ["grad_x"]
names += ["grad_residual"] if spec.residual_add else []
names += ["grad_weight"] + (["grad_bias"] if spec.has_bias else [])
print(f"{operator} on {device}: error / RMS of the float64 reference")
print("shape | " + " | ".join(names))
for shape in suite.FAR_FIRST_SHAPES:
    torch.manual_seed(0)
    xs, params, grad_outs = suite.far_first_inputs(spec, shape, device)
    outputs = suite.run(spec, xs, params, spec.default_eps)
    grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs)
    expected_outputs, expected_grads = suite.reference_outputs(spec, xs, params, grad_outs, spec.default_eps)
    errors = [
        ((a.double() - e).abs().max() / e.pow(2).mean().sqrt()).item()
        for a, e in zip([*outputs, *grads], [*expected_outputs, *expected_grads], strict=True)
    ]
    print(f"{shape} | " + " | ".join(f"{e:.2e}" for e in errors))
