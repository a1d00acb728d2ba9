"""Lab T3 (as lab T1's t1_ncu.py): one call of an implementation (ours, compile, liger) between
cudaProfilerStart and Stop, for Nsight Compute's --profile-from-start off (run from a project's root):
python3 t3_ncu.py OP IMPL DTYPE M N forward|backward"""

import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, impl, dtype_name, m, n, pass_name = sys.argv[1:7]
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
sets = runner.make_buffer_sets(FAMILY, spec, (int(m), int(n)), getattr(torch, dtype_name), device, 2)
fn = {
    "ours": lambda: runner.bind(FAMILY, spec, spec.function),
    "compile": lambda: runner.bind(FAMILY, spec, torch.compile(spec.reference)),
    "liger": lambda: runner.as_tuple(FAMILY.peers(spec, device)["liger"]),
}[impl]()
grad = pass_name != "forward"
call = (runner.forward_backward_call if grad else runner.forward_call)(fn)
with torch.set_grad_enabled(grad):
    for i in range(4):
        call(sets[i % 2])
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    call(sets[0])
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
