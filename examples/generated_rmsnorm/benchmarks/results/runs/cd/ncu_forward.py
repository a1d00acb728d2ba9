"""One forward case for lab CD's Nsight Compute runs, with the benchmark's inputs (not its timing: ncu
times one kernel alone, serialized, every cache flushed, where the benchmark replays CUDA graphs of
calls back to back; corrected after the run, session 62's review): the project's harness draws
BUFFER_SETS buffer sets (its make_buffer_sets: x standard normal, the parameters near
the identity, each set its own), binds IMPL ("ours": the operator; "compile": torch.compile of the
operator's reference, as the benchmark's compile column) and runs it under torch.no_grad over the
sets in turn, CALLS calls, synchronized at the end. lab_cd.sh has ncu profile the kernels of the
call in the NVTX range "profiled", with the caches flushed (ncu's default; the benchmark's rotation
over more than 3x L2 leaves a set's activations cold, but its parameters, read with evict_last, may
stay in L2). Run in the project's folder:
    python3 ncu_forward.py OP DTYPE ROWS COLS IMPL
"""

import sys

import torch

sys.path.insert(0, "benchmarks")
from harness import row_norm, runner  # noqa: E402

BUFFER_SETS = 24  # 24 x (x and y) of 8 MiB at 4096 x 1024 in 16 bits (the benchmark drew 5 sets there)
CALLS = 40
PROFILED = 30  # the 31st call, in an NVTX range of its own (after any of Inductor's autotuning)

op, dtype, impl = sys.argv[1], getattr(torch, sys.argv[2]), sys.argv[5]
rows, cols = int(sys.argv[3]), int(sys.argv[4])
family = row_norm.FAMILY
spec = runner.load_spec(family, op)
fn = spec.function if impl == "ours" else torch.compile(spec.reference)
call = runner.forward_call(runner.bind(family, spec, fn))
torch.manual_seed(0)
sets = runner.make_buffer_sets(family, spec, (rows, cols), dtype, torch.device("cuda"), BUFFER_SETS)
with torch.no_grad():
    for i in range(CALLS):
        if i == PROFILED:
            torch.cuda.nvtx.range_push("profiled")
        call(sets[i % BUFFER_SETS])
        if i == PROFILED:
            torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print("ok", op, impl, dtype, rows, cols)
