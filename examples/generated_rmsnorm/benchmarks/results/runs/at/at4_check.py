# ruff: noqa: E501
"""Lab AT4 (issue 11): keep3's cases, checked. Run from a project's root (a build with keep3.diff):
python3 at4_check.py OP. For each case (shape, dtype, and a cap on the backward's row groups,
ROW_NORM_BACKWARD_GROUPS, or none): the outputs and gradients of one forward+backward against the
reference in float64 (the benchmark's check: per-dtype tolerances, a relative norm for the
parameters' gradients), twice with the same bits; whether the kept rows applied, by the peak memory
of the backward against that of the workspace's path (ROW_NORM_KEEP=0: the same call then allocates
the workspace, so its peak is higher where keep applies); and how far the parameters' gradients of
the two paths lie apart (their sums are added in other orders). The cases reach keep3's paths: rows
of whole and of several row groups a block (short rows under a cap), a share of columns a block
that is a multiple of 16 bytes of sums and one that is not (scalar loads and stores), row groups of
exactly `keep` rows, and groups with one row more than others. Prints one line a case and 'check ok'
(or 'check FAILED' and exit 1) at the end, with the count of cases where the kept rows applied."""

import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op = sys.argv[1]
spec = runner.load_spec(FAMILY, op)
fn = runner.bind(FAMILY, spec, spec.function)
reference = runner.bind(FAMILY, spec, spec.reference)
call = runner.forward_backward_call(fn)
device = torch.device("cuda")
# (rows, cols, cap): whole row groups a block (4099 x 1024: 1024 blocks, three groups a row longer;
# 16 x 4096 under 8: two rows each, all kept in 16-bit), several a block (64, 48, 40 and 24 columns
# under a cap), a share of 3 columns a block (24 columns, 8 blocks: scalar path).
CASES = [
    (4099, 1024, None),
    (2050, 1024, None),
    (300, 4096, 8),
    (16, 4096, 8),
    (8, 4096, 8),
    (2000, 64, 8),
    (1000, 48, 6),
    (999, 40, 5),
    (1000, 24, 8),
    (777, 2048, 16),
]
DTYPES = (torch.bfloat16, torch.float16, torch.float32, torch.float64)


def backward_peak(buffers) -> int:
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    call(buffers)
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated()


failed = applied = 0
for rows, cols, cap in CASES:
    for dtype in DTYPES:
        name = f"{str(dtype)[6:]} {rows}x{cols} cap {cap}"
        if cap is None:
            os.environ.pop("ROW_NORM_BACKWARD_GROUPS", None)
        else:
            os.environ["ROW_NORM_BACKWARD_GROUPS"] = str(cap)
        torch.manual_seed(rows * cols)
        (buffers,) = runner.make_buffer_sets(FAMILY, spec, (rows, cols), dtype, device, 1)
        try:
            expected = runner.evaluate_in_float64(reference, buffers)
            runner.check_against_reference(f"ours {op}", fn, expected, buffers, name)
            call(buffers)
            first = [t.clone() for t in buffers.outputs]
            peak_keep = backward_peak(buffers)
            same = all(torch.equal(a, b) for a, b in zip(first, buffers.outputs, strict=True))
            os.environ["ROW_NORM_KEEP"] = "0"
            try:
                peak_workspace = backward_peak(buffers)
                other = [t.clone() for t in buffers.outputs]
            finally:
                del os.environ["ROW_NORM_KEEP"]
            keeps = peak_keep < peak_workspace
            applied += keeps
            n_act = len(FAMILY.activations(spec)) + FAMILY.outputs(spec)
            # the parameters' gradients: the outputs after the activations' gradients
            apart = max(
                ((a.double() - b.double()).abs().max() / b.double().abs().max().clamp_min(1e-30)).item()
                for a, b in zip(first[n_act:], other[n_act:], strict=True)
            )
            grad_x_same = all(torch.equal(a, b) for a, b in zip(first[:n_act], other[:n_act], strict=True))
            status = "ok" if same and grad_x_same else "FAILED"
            failed += status != "ok"
            print(
                f"{op} {name:28} {status}: kept rows {'applied' if keeps else 'not applied'} "
                f"(peak {peak_keep} B against {peak_workspace}), same bits twice {same}, outputs and "
                f"grad of activations as the workspace's {grad_x_same}, parameters' gradients apart by {apart:.2e} of their largest",
                flush=True,
            )
        except Exception as error:  # noqa: BLE001
            failed += 1
            print(f"{op} {name:28} FAILED: {type(error).__name__}: {error}", flush=True)
print(f"{applied} cases took the kept rows")
print("check FAILED" if failed else "check ok")
sys.exit(1 if failed else 0)
