# ruff: noqa: E501
"""The residual-add LayerNorm's float32 forward at 4096 x 16384 (issue 11's goal cell, 90% of the copy
rate) in every record of session 58 (2026-12-01; one H200, torch 2.11.0+cu130, CUDA 13.0) that timed
main's kernel, device time (us) and % of the copy rate where the record has it, each marked by
whether the benchmark had timed torch.compile's peer per call (its interleaved rounds of ours, eager
and torch.compile, which come before ours' device time) in that process; then the range of each
kind. Call BN's table (../norms/fused_add_layer_norm/) beside them. In bw/'s "after step compile"
rows torch.compile's peer was compiled and run (checked against float64 as the benchmark checks
it) but not timed: "no".
    python3 bx/goal_cell_bx.py > bx/goal_cell_bx.txt   (from runs/)"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CELL = ("float32", [4096, 16384], "forward")
rows = []  # (record, compile ran first, device us, % of copy or None)


def bench(path: Path, compiled: bool, build: str = "ours") -> None:
    for r in json.loads(path.read_text())["results"]:
        if (r["dtype"], r["shape"], r["pass"]) == CELL:
            rows.append(
                (
                    str(path.relative_to(HERE.parent)),
                    compiled,
                    r["device_ms"][build] * 1000,
                    r["pct_of_copy"]["ours"],
                )
            )


bench(HERE.parent / "norms/fused_add_layer_norm/bench_fused_add_layer_norm.json", True)
for tag in ("plain1", "plain2"):
    bench(HERE / f"bt/bt/bench_base_{tag}.json", False)
bench(HERE / "bt/bt/bench_base_tables.json", True)
for path in sorted((HERE / "bt/bt").glob("time_base_*.json")):
    for r in json.loads(path.read_text()):
        if r["case"] == "float32 4096x16384":
            rows.append((str(path.relative_to(HERE.parent)), False, r["forward"], None))
for tag in ("alone1", "after32k", "after8k", "after64k", "tables", "compile", "alone2"):
    bench(HERE / f"bv/bv/bench_fused_add_layer_norm_{tag}.json", tag == "compile")
for r in json.loads((HERE / "bv/bv/place_fused_add_layer_norm.json").read_text())["rows"]:
    rows.append(
        (f"bv/bv/place_fused_add_layer_norm.json: {r['sweep']} {r['case']}", False, r["forward_us"], None)
    )
for name in ("stepwise", "compile_only"):
    for r in json.loads((HERE / f"bw/bw/{name}.json").read_text())["rows"]:
        # after_compile_bw.py's "compile" step compiles and checks the reference, without timing it
        for us in r["forward_us"]:
            rows.append((f"bw/bw/{name}.json: after step {r['step']}", False, us, None))
bench(HERE / "bw/bw/bench_alone.json", False)
bench(HERE / "bx/bx/bench_base_all.json", False)
bench(HERE / "bx/bx/bench_base_f32.json", False)
bench(HERE / "bx/bx2/bench_base_f32.json", False)

print("record".ljust(96), "compile timed", "device us", "% of copy")
for record, compiled, us, pct in rows:
    print(
        record[:95].ljust(96),
        ("yes" if compiled else "no").ljust(13),
        f"{us:9.1f}",
        f"{pct:9.1f}" if pct else "        -",
    )
for compiled in (True, False):
    times = [us for _, c, us, _ in rows if c == compiled]
    processes = {record.split(":")[0] for record, c, _, _ in rows if c == compiled}
    pcts = [p for _, c, _, p in rows if c == compiled and p]
    print(
        f"\ntorch.compile's peer timed per call first: {'yes' if compiled else 'no'}: {len(times)} timings in "
        f"{len(processes)} processes, {min(times):.1f} to {max(times):.1f} us; in the {len(pcts)} benchmark rows "
        f"among them {min(pcts):.1f} to {max(pcts):.1f}% of the copy rate"
    )

# Every cell: call BN's table (torch.compile's peer timed per call before ours) against lab BX's first
# base benchmark (without torch.compile), ours' device time.
table = json.loads((HERE.parent / "norms/fused_add_layer_norm/bench_fused_add_layer_norm.json").read_text())
alone = json.loads((HERE / "bx/bx/bench_base_all.json").read_text())
index = {(r["dtype"], tuple(r["shape"]), r["pass"]): r["device_ms"]["ours"] * 1000 for r in alone["results"]}
print("\nevery cell, ours' device us: call BN's table against bx/bx/bench_base_all.json (no torch.compile)")
moved = []
for r in table["results"]:
    key = (r["dtype"], tuple(r["shape"]), r["pass"])
    before, now = r["device_ms"]["ours"] * 1000, index[key]
    mark = "  <- above 20 us and over 2% apart" if before > 20 and abs(now / before - 1) > 0.02 else ""
    moved += [key] if mark else []
    print(
        f"{key[0]:9} {'x'.join(map(str, key[1])):11} {key[2]:16} {before:8.1f} {now:8.1f} {now / before:6.3f}{mark}"
    )
print(f"cells above 20 us over 2% apart: {len(moved)}")

# The float32 forward+backward at 4096 x 1024 in every benchmark record above (the only other cell
# above 20 us over 2% apart), by whether torch.compile's peer was timed per call first.
SMALL = ("float32", [4096, 1024], "forward+backward")
benchmarks = [(record, compiled) for record, compiled, _, pct in rows if pct is not None]
print("\nfloat32 4096x1024 forward+backward, ours' device us, in the same benchmark records")
for compiled in (True, False):
    found = []
    for record, c in benchmarks:
        if c != compiled:
            continue
        for r in json.loads((HERE.parent / record).read_text())["results"]:
            if (r["dtype"], r["shape"], r["pass"]) == SMALL:
                found.append(r["device_ms"]["ours"] * 1000)
                print(f"  {record:70} {'yes' if c else 'no':4} {found[-1]:7.1f}")
    if found:
        print(
            f"  timed with torch.compile first: {'yes' if compiled else 'no'}: {min(found):.1f} to {max(found):.1f} us in {len(found)}"
        )
