"""Call L against main's benchmark records (call P2, the CUDA sources of 3199d30): for each cell of a
norm's benchmark, ours' device time new over old, ours' % of the copy rate old -> new, the least of
'vs X, device' over the peers in the new run (below 1: a peer was faster), and the new peak memory.
Usage: python3 compare_l.py OLD_JSON NEW_JSON. compare_l.txt is its output for the four norms, each
under a line "== NORM: OLD_JSON -> NEW_JSON" that this loop, run in this folder, printed:
  R=../..; for n in layer_norm fused_add_layer_norm fused_add_rms_norm; do
    echo "== $n: $R/norms/$n/bench_$n.json -> l1/$n/bench_$n.json"
    python3 compare_l.py $R/norms/$n/bench_$n.json l1/$n/bench_$n.json; done
  echo "== rms_norm: $R/bench_rms_norm.json -> l2/rmsnorm/bench_rms_norm.json"
  python3 compare_l.py $R/bench_rms_norm.json l2/rmsnorm/bench_rms_norm.json"""

import json
import sys

old, new = (json.load(open(p)) for p in sys.argv[1:3])


def key(r):
    return r["dtype"], tuple(r["shape"]), r["pass"]


def pct(r):
    return "host-bound" if r["host_bound"] else f"{r['pct_of_copy']['ours']:.1f}%"


before = {key(r): r for r in old["results"]}
for r in new["results"]:
    p = before.get(key(r))
    if p is None:
        continue
    ratio = r["device_ms"]["ours"] / p["device_ms"]["ours"]
    least = min(r["device_speedup"].items(), key=lambda kv: kv[1])
    peak = r["peak_mib"]
    peak_s = " peak MiB " + " / ".join(f"{k} {v:.1f}" for k, v in peak.items()) if peak else ""
    print(
        f"{r['dtype']:9s} {r['shape'][0]:>5}x{r['shape'][1]:<6} {r['pass']:17s} new/old {ratio:.3f}  "
        f"{pct(p)} -> {pct(r)}  least vs peers {least[1]:.3f} ({least[0]}){peak_s}"
    )
