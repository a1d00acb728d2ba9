# ruff: noqa: E501
"""Lab AT (issue 11): the backward's grid barriers beside other streams' work. Run from a project's
root: python3 at_streams.py OP. For bfloat16 and float32 at 8192 x 8192 and 4096 x 1024: the
forward+backward outputs of one call alone, then ROUNDS calls, each launched while a second stream
runs a chain of large matrix products that holds every multiprocessor (and a third torch.cuda._sleep,
a kernel of one block that spins), each call's outputs compared bit for bit with the call alone; CUDA
events on both streams say how many calls began before the products ended (ran beside them). A hang
is the caller's timeout; neighbours that wait on peers (NCCL's) are not modelled. Prints one line a
case and 'streams ok' at the end; exits 1 at the first mismatch.
(Labs AT and AT2 ran the version of commit 509d734, which compared only the last call's outputs and
recorded no events.)"""

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


def event():
    return torch.cuda.Event(enable_timing=True)


for dtype in (torch.bfloat16, torch.float32):
    for shape in ((8192, 8192), (4096, 1024)):
        (buffers,) = runner.make_buffer_sets(FAMILY, spec, shape, dtype, device, 1)
        call(buffers)
        torch.cuda.synchronize()
        alone = [t.clone() for t in buffers.outputs]
        same = beside = 0
        for _ in range(ROUNDS):
            origin, busy_end, call_start = event(), event(), event()
            origin.record()
            busy.wait_event(origin)
            with torch.cuda.stream(busy):
                b = a
                for _ in range(4):
                    b = b @ a
                busy_end.record(busy)
            with torch.cuda.stream(sleepy):
                torch.cuda._sleep(1_000_000)
            call_start.record()
            call(buffers)
            torch.cuda.synchronize()
            same += all(torch.equal(x, y) for x, y in zip(alone, buffers.outputs, strict=True))
            beside += origin.elapsed_time(call_start) < origin.elapsed_time(busy_end)
        print(
            f"{op} {str(dtype)[6:]} {shape[0]}x{shape[1]}: {ROUNDS} calls, {same} with the same bits as alone, "
            f"{beside} begun before the other stream's products ended",
            flush=True,
        )
        if same != ROUNDS:
            sys.exit(1)
print("streams ok")
