"""What every family's test suite shares: the devices and dtypes its cases run on, and its fixture of
the operator under test."""

import pytest
import torch

CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
DEVICES = ["cpu", pytest.param("cuda", marks=CUDA)]
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
HALF_DTYPES = [torch.bfloat16, torch.float16]


def spec_fixture(specs: dict):
    """A suite's fixture `spec`: the spec, in the family's `specs`, of the operator of the test module
    that imported the suite (its OPERATOR)."""

    @pytest.fixture(scope="module")
    def spec(request):
        """The operator of the test module that imported these tests (its OPERATOR)."""
        return specs[request.module.OPERATOR]

    return spec
