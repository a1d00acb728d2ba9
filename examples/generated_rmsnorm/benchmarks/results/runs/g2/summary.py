"""summary.py: the figures the CHANGELOG quotes from the family's benchmark records (the example's
bench_rms_norm.json and norms/*/bench_*.json): ranges of % of the copy rate, the cells where ours
takes longer than a peer in device time, per-call ratios where the host sets the pace, peak memory."""

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2]
FILES = {
    "rms_norm": RESULTS / "bench_rms_norm.json",
    **{
        n: RESULTS / "norms" / n / f"bench_{n}.json"
        for n in ("layer_norm", "fused_add_rms_norm", "fused_add_layer_norm")
    },
}
BIG = ("32768x4096", "8192x8192", "4096x16384")


def span(values):
    return f"{min(values):.1f}-{max(values):.1f}%" if values else "-"


for name, path in FILES.items():
    rows = json.loads(path.read_text())["results"]
    print(f"== {name} ({len(rows)} cells)")
    shape = lambda r: "x".join(map(str, r["shape"]))  # noqa: E731
    for p in ("forward", "forward+backward"):
        for dts in (("float32",), ("bfloat16", "float16")):
            for shapes in (BIG, ("1024x65536",), ("8192x4095",)):
                vals = [
                    r["pct_of_copy"]["ours"]
                    for r in rows
                    if r["pass"] == p and r["dtype"] in dts and shape(r) in shapes
                ]
                print(f"  {p:16s} {'/'.join(dts):17s} {'/'.join(shapes):32s} {span(vals)}")
    for peer in ("eager", "compile", "liger"):
        if peer not in rows[0]["device_ms"]:
            continue
        slower = [r for r in rows if r["device_ms"]["ours"] > r["device_ms"][peer]]
        outside = [r for r in slower if not r["host_bound"]]
        worst = max(outside, key=lambda r: r["device_ms"]["ours"] / r["device_ms"][peer], default=None)
        text = ""
        if worst:
            text = (
                f"; worst outside: {worst['dtype']} {shape(worst)} {worst['pass']} "
                f"+{(worst['device_ms']['ours'] / worst['device_ms'][peer] - 1) * 100:.1f}% "
                f"at {worst['pct_of_copy']['ours']:.1f}%"
            )
        print(
            f"  slower than {peer} in device time: {len(slower)} of {len(rows)}, outside the host's shapes "
            f"{len(outside)} of {sum(not r['host_bound'] for r in rows)}{text}"
        )
        for r in outside:
            print(
                f"     {r['dtype']} {shape(r)} {r['pass']} ours {r['pct_of_copy']['ours']:.1f}% "
                f"+{(r['device_ms']['ours'] / r['device_ms'][peer] - 1) * 100:.1f}%"
            )
    host = [r for r in rows if r["host_bound"]]
    for p in ("forward", "forward+backward"):
        cells = [r for r in host if r["pass"] == p]
        slow = [r["speedup"]["eager"] for r in cells if r["speedup"]["eager"] < 1]
        print(
            f"  host's shapes, {p}: slower a call than eager in {len(slow)} of {len(cells)}"
            + (f" ({min(slow):.2f}x-{max(slow):.3f}x)" if slow else "")
        )
    peaks = [r for r in rows if r.get("peak_mib") and r["peak_mib"].get("ours") is not None]
    above = [
        r["peak_mib"]["ours"] - r["peak_mib"]["eager"]
        for r in peaks
        if r["peak_mib"]["ours"] > r["peak_mib"]["eager"]
    ]
    print(
        f"  peak above eager's in {len(above)} of {len(peaks)}"
        + (f", by up to {max(above):.1f} MiB" if above else "")
    )
