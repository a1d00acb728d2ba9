"""benchmarks/gpu_suite.py of a generated project (the example's copy): what it makes of a run."""

import importlib.util

import pytest

from scaffold import render


@pytest.fixture(scope="module")
def gpu_suite():
    path = render.EXAMPLE_DIR / "benchmarks" / "gpu_suite.py"
    spec = importlib.util.spec_from_file_location("example_gpu_suite", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MEMCHECK_CLEAN = "========= COMPUTE-SANITIZER\nsanitizer case: done\n========= ERROR SUMMARY: 0 errors\n"
# Calls G3-2's memcheck of LayerNorm: the workload ended, then the process aborted as it exited.
MEMCHECK_ABORTED = (
    "========= COMPUTE-SANITIZER\nsanitizer case: done\nterminate called without an active exception\n"
    "========= Error: process didn't terminate successfully\n========= Target application returned an error\n"
    "========= ERROR SUMMARY: 0 errors\n"
)
MEMCHECK_ERRORS = "========= Invalid __global__ write of size 4 bytes\n========= ERROR SUMMARY: 2 errors\n"
# Calls G3's memcheck of the RMSNorm example beside four other suites: the GPU ran out of memory.
MEMCHECK_OUT_OF_MEMORY = (
    '========= Program hit cudaErrorMemoryAllocation (error 2) due to "out of memory" on CUDA API call to '
    "cudaLaunchKernel.\n========= Target application returned an error\n========= ERROR SUMMARY: 2 errors\n"
)
RACECHECK_CLEAN = "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
RACECHECK_ERRORS = "========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)\n"


@pytest.mark.parametrize(
    ("code", "output", "verdict"),
    [
        (0, MEMCHECK_CLEAN, "clean"),
        (0, RACECHECK_CLEAN, "clean"),
        (1, MEMCHECK_ERRORS, "errors found"),
        (1, RACECHECK_ERRORS, "errors found"),
        (1, MEMCHECK_OUT_OF_MEMORY, "errors found"),
        (1, "========= ERROR SUMMARY: 1 error\n", "errors found"),
        (6, MEMCHECK_ABORTED, "0 errors, but the workload failed (exit 6)"),
        (1, RACECHECK_CLEAN, "0 errors, but the workload failed (exit 1)"),
        (139, "========= COMPUTE-SANITIZER\n", "failed (exit 139) before its summary"),
    ],
    ids=[
        "memcheck",
        "racecheck",
        "memcheck_errors",
        "racecheck_errors",
        "out_of_memory",
        "one_error",
        "aborted",
        "racecheck_failed",
        "no_summary",
    ],
)
def test_a_sanitizer_run_is_called_clean_only_where_it_exited_0_and_errors_only_where_it_counted_some(
    gpu_suite, code, output, verdict
):
    assert gpu_suite.sanitizer_verdict(code, output) == verdict
