# ruff: noqa: E501
"""Lab AT (issue 11): the backward's grid barriers beside other streams' work. Run from a project's
root: python3 at_streams.py OP. For bfloat16 and float32 at 8192 x 8192 and 4096 x 1024: the
forward+backward outputs of one call alone, then ROUNDS calls, each started (its stream waits on an
event) once the first of four large matrix products on a second stream has ended, while the other
three still hold the processors, and beside torch.cuda._sleep on a third (a kernel of one block that
spins); each call's outputs are compared bit for bit with the call alone, and CUDA events count the
calls that ended before the products did (that ran beside them rather than after). A hang is the
caller's timeout; neighbours that wait on peers (NCCL's) are not modelled. Prints one line a case and
'streams ok' at the end; exits 1 after the first case with a mismatch.
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
            origin, first_done, busy_end, call_end = event(), event(), event(), event()
            origin.record()
            busy.wait_event(origin)
            with torch.cuda.stream(busy):
                b = a @ a
                first_done.record(busy)
                for _ in range(3):
                    b = b @ a
                busy_end.record(busy)
            with torch.cuda.stream(sleepy):
                torch.cuda._sleep(1_000_000)
            torch.cuda.current_stream().wait_event(first_done)
            call(buffers)
            call_end.record()
            torch.cuda.synchronize()
            same += all(torch.equal(x, y) for x, y in zip(alone, buffers.outputs, strict=True))
            beside += origin.elapsed_time(call_end) < origin.elapsed_time(busy_end)
        print(
            f"{op} {str(dtype)[6:]} {shape[0]}x{shape[1]}: {ROUNDS} calls, {same} with the same bits as alone, "
            f"{beside} ended before the other stream's products did",
            flush=True,
        )
        if same != ROUNDS:
            sys.exit(1)
print("streams ok")
