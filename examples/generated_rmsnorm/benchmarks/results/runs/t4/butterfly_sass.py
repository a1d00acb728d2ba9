"""The instructions of each step of a row reduction's warp butterfly in one kernel's SASS.

Usage: butterfly_sass.py OBJECT KERNEL_SUBSTRING. From `cuobjdump -sass` of OBJECT (an object file
built for sm_90a), the first kernel whose mangled name contains KERNEL_SUBSTRING: for each
butterfly offset written as an immediate (0x10 down to 0x1), the static count of instructions from
its first SHFL.BFLY to the next offset's first (so not the last step's), and how many of them are
MUFU.RCP (a reciprocal, the heart of a fast division), VOTE, or BRA. Static counts: a warp whose
lanes take both sides of a branch issues both.
"""

import re
import subprocess
import sys

obj, want = sys.argv[1], sys.argv[2]
sass = subprocess.run(["cuobjdump", "-sass", obj], capture_output=True, text=True, check=True).stdout
functions = re.split(r"\n\s*Function : ", sass)
body = next(f for f in functions[1:] if want in f.split("\n", 1)[0])
name = body.split("\n", 1)[0].strip()
instructions = re.findall(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", body)
print(f"kernel {name}\n{len(instructions)} instructions")
starts = []
for offset in (0x10, 0x8, 0x4, 0x2, 0x1):
    pattern = re.compile(rf"SHFL\.BFLY PT, R\d+, R\d+, 0x{offset:x}, 0x1f")
    index = next((i for i, (_, text) in enumerate(instructions) if pattern.search(text)), None)
    if index is not None:
        starts.append((offset, index))


def count(step, op):
    return sum(1 for t in step if re.match(rf"(@!?U?P\w+\s+)?{op}\b", t.strip()))


for (offset, begin), (_, end) in zip(starts, starts[1:], strict=False):
    step = [text for _, text in instructions[begin:end]]
    print(
        f"offset {offset:2d}: {len(step)} instructions, MUFU.RCP {count(step, 'MUFU.RCP')}, "
        f"VOTE {count(step, 'VOTE')}, BRA {count(step, 'BRA')}"
    )
