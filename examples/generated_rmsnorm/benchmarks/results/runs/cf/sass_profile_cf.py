"""Lab CF's Nsight Compute reports exported per SASS instruction (cf/*_sass.csv: ncu --page source
--print-source sass of lab_cf.sh's reports, one call each of base's and torch.compile's bfloat16
LayerNorm forward at 4096 x 1024): the kernel's instructions in segments that end at each load,
store, shuffle, vote, MUFU, barrier or exit that runs, with the instructions a warp executes in each
(over all its passes through it: a loop's segments count every iteration) and the warp stall samples
that fall in it; then the samples by stall reason.
    python3 sass_profile_cf.py > sass_profile_cf.txt"""

import csv
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent / "cf"
WARPS = 4096  # a warp a row, 4096 rows
LANDMARKS = ("LDG", "STG", "SHFL", "VOTE", "MUFU", "BAR", "EXIT")

for impl in ("ours", "compile"):
    lines = (HERE / f"layer_norm_bfloat16_4096x1024_{impl}_sass.csv").read_text().splitlines()
    rows = list(csv.reader(lines[1:]))  # the first line names the kernel
    header = {name: i for i, name in enumerate(rows[0])}
    kernel = next(csv.reader(lines[:1]))[1].split("(")[0]
    executed = samples = 0
    reasons = Counter()
    print(f"== {impl}: {kernel}")
    print(f"   {'segment ends at':64} {'instr/warp':>10} {'samples':>8}")
    segment_executed = segment_samples = 0
    for row in rows[1:]:
        count = int(row[header["Instructions Executed"]])
        sampled = int(row[header["Warp Stall Sampling (All Samples)"]])
        executed += count
        samples += sampled
        segment_executed += count
        segment_samples += sampled
        for name, i in header.items():
            if name.startswith("stall_") and row[i].isdigit():
                reasons[name] += int(row[i])
        source = row[header["Source"]].strip()
        opcode = source.split()[1] if source.startswith("@") else source.split()[0]
        if count and opcode.startswith(LANDMARKS):
            print(f"   {source[:64]:64} {segment_executed / WARPS:10.1f} {segment_samples:8d}")
            segment_executed = segment_samples = 0
    if segment_executed or segment_samples:
        print(f"   {'(after the last)':64} {segment_executed / WARPS:10.1f} {segment_samples:8d}")
    print(f"   total: {executed / WARPS:.1f} instructions a warp, {samples} samples")
    top = ", ".join(f"{name.removeprefix('stall_')} {n}" for name, n in reasons.most_common(8) if n)
    print(f"   samples by stall reason: {top}\n")
