"""Lab AB-O: the suite's CPU-only case of rows whose backward sums about their first element overflow
float32 (test_the_cpu_backward_of_rows_whose_sums_about_their_first_element_overflow), run on the
CUDA kernels too, at shapes whose rows lie in registers (8 x 4096), are staged in shared memory over
a cluster (6 x 32768) and take shifted rows (3 x 100003). lab_ab_o.sh copies this file into a
rendered project's tests/ as test_overflow_lab.py with OPERATOR set to the project's operator."""

import pytest
import torch
from suites.row_norm import check_inputs, make_inputs, spec  # noqa: F401

OPERATOR = "layer_norm"


@pytest.mark.parametrize("device", ["cpu", "cuda"])
@pytest.mark.parametrize("shape", [(8, 4096), (6, 32768), (3, 100003)], ids=str)
def test_lab_overflow(spec, device, shape):  # noqa: F811
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no GPU")
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, device)
    with torch.no_grad():
        xs[0].mul_(1e15)
        for g in grad_outs:
            g.mul_(1e24)
    for t in [*xs, *params]:
        t.requires_grad_()
    check_inputs(spec, xs, params, grad_outs, torch.float32)
