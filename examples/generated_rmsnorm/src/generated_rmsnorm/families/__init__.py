"""Operator families: what every operator of a kind gets in Python, written once for the project.

A family module registers its operators' fake kernels, makes their functions and layers, and keeps
their specs (SPECS), which the family's tests (tests/suites/) and benchmark (benchmarks/harness/)
read. The operators' own modules are in ``ops/``.
"""
