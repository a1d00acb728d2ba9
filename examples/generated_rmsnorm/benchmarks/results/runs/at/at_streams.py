# ruff: noqa: E501
"""Lab AT (issue 11): the backward's grid barriers beside other streams' work. Run from a project's
root: python3 at_streams.py OP. For bfloat16 and float32 at 8192 x 8192 and 4096 x 1024: the
forward+backward outputs of one call alone, then ROUNDS calls each launched while a second stream
runs a chain of large matrix products that holds every multiprocessor (and a third torch.cuda._sleep,
a kernel of one block that spins), each compared bit for bit with the call alone (a hang is the
caller's timeout). Prints one line a case and 'streams ok' at the end; exits 1 at the first mismatch."""

import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

ROUNDS = 20
op = sys.argv[1]
spec = runner.load_spec(FAMILY, op)
fn = runner.bind(FAMILY, spec, spec.function)
call = runner.forward_backward_call(fn)
device = torch.device("cuda")
busy, sleepy = torch.cuda.Stream(), torch.cuda.Stream()
a = torch.randn(8192, 8192, device=device)
for dtype in (torch.bfloat16, torch.float32):
    for shape in ((8192, 8192), (4096, 1024)):
        (buffers,) = runner.make_buffer_sets(FAMILY, spec, shape, dtype, device, 1)
        call(buffers)
        torch.cuda.synchronize()
        alone = [t.clone() for t in buffers.outputs]
        for _ in range(ROUNDS):
            with torch.cuda.stream(busy):
                b = a
                for _ in range(4):
                    b = b @ a
            with torch.cuda.stream(sleepy):
                torch.cuda._sleep(1_000_000)
            call(buffers)
        torch.cuda.synchronize()
        same = all(torch.equal(x, y) for x, y in zip(alone, buffers.outputs, strict=True))
        print(
            f"{op} {str(dtype)[6:]} {shape[0]}x{shape[1]}: {ROUNDS} calls beside other streams, outputs {'the same bits' if same else 'DIFFER'}",
            flush=True,
        )
        if not same:
            sys.exit(1)
print("streams ok")
