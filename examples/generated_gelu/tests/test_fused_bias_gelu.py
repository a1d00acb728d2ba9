"""Tests of the operator fused_bias_gelu.

The bias + activation family's tests (tests/suites/bias_activation.py) run here on this operator,
whose spec its module registers. Add tests of its own below.
"""

from suites.bias_activation import *  # noqa: F403

OPERATOR = "fused_bias_gelu"
