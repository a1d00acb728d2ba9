"""Tests of the operator rms_norm.

The row normalization family's tests (tests/suites/row_norm.py) run here on this operator,
whose spec its module registers. Add tests of its own below.
"""

from suites.row_norm import *  # noqa: F403

OPERATOR = "rms_norm"
