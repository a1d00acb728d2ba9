#!/usr/bin/env bash
# land_ah.sh: puts call AH's records (call_ah.sh's phases 1, 2, 3 on one H200, unpacked into this
# folder) where tests/test_results.py and `scaffold results-table` read them: each norm's suite
# (gpu_suite.json, tests.log, the sanitizer logs, its phase's build log as build.log) in place of
# call AG's, and LayerNorm's and the residual-add LayerNorm's benchmarks (bench_*.json, .png,
# benchmark.log) in place of call AB's. Each norm's two_gpus/ folder (call AB's two-GPU suites) stays.
# It checks first and copies nothing unless every check passes: all phases of one commit's bundle;
# each suite passed with nothing failed and compute-sanitizer clean; each benchmark a full GPU run of
# its operator, on its suite's kernel sources, against Liger-Kernel where it has the operator, that
# ended with exit 0; the bundle rendered from a commit without uncommitted changes.
set -eu
AH=$(cd "$(dirname "$0")" && pwd); OUT=$(cd "$AH/../.." && pwd)  # benchmarks/results
python3 - "$AH" <<'PY'
import json, sys
from pathlib import Path
ah = Path(sys.argv[1])
SUITES = {"rmsnorm": "2", "layer_norm": "3", "fused_add_layer_norm": "2", "fused_add_rms_norm": "3"}
BENCHES = {"layer_norm": ("layer_norm", ["liger"]), "fused_add_layer_norm": ("fused_add_layer_norm", [])}
problems = []
needed = [f"{phase}/commit.txt" for phase in "123"] + ["1/console.txt"]
needed += [f"{phase}/{norm}/{f}" for norm, phase in SUITES.items()
           for f in ("gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log")]
needed += [f"{phase}/build_{norm}.log" for norm, phase in SUITES.items()]
needed += [f"1/{norm}/{f}" for norm, (op, _) in BENCHES.items() for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log")]
problems += [f"missing: {f}" for f in needed if not (ah / f).is_file()]
if problems:
    sys.exit("\n".join(problems))
if len({(ah / phase / "commit.txt").read_text() for phase in "123"}) != 1:
    problems.append("the phases ran more than one commit's bundle")
if len((ah / "1" / "commit.txt").read_text().strip().splitlines()) > 1:
    problems.append("the bundle was rendered with uncommitted changes: commit ah.patch first")
sources = {}
for norm, phase in SUITES.items():
    suite = json.loads((ah / phase / norm / "gpu_suite.json").read_text())
    summary = suite.get("tests", {}).get("summary") or ""
    if suite.get("failed") or not suite.get("tests", {}).get("ok") or " failed" in summary or " error" in summary:
        problems.append(f"{phase}/{norm}: failed {suite.get('failed')}, {summary}")
    if {s["tool"]: s["verdict"] for s in suite.get("sanitizer", [])} != {"memcheck": "clean", "racecheck": "clean"}:
        problems.append(f"{phase}/{norm}: compute-sanitizer not clean")
    sources[norm] = suite["environment"].get("sources_sha256")
console = (ah / "1" / "console.txt").read_text()
for norm, (op, peers) in BENCHES.items():
    meta = json.loads((ah / "1" / norm / f"bench_{op}.json").read_text())["meta"]
    if meta.get("sources_sha256") != sources[norm]:  # (the suites ran later, in phases 2 and 3)
        problems.append(f"1/{norm}: its benchmark measured other kernel sources than its suite")
    if (meta.get("device_type") != "gpu" or meta.get("quick") or not meta.get("liger_version")
            or meta.get("peers") != peers or not meta.get("op", "").endswith(f"::{op}")):
        problems.append(f"1/{norm}: its benchmark is not a full GPU run against {peers or 'no peer'}")
    if f"bench {norm} exit 0 " not in console:
        problems.append(f"1/{norm}: its benchmark did not end with exit 0 (1/console.txt)")
sys.exit("\n".join(problems) or 0)
PY
suite() {  # suite NORM WHERE PHASE
  local f
  for f in gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log; do cp "$AH/$3/$1/$f" "$OUT/$2/$f"; done
  cp "$AH/$3/build_$1.log" "$OUT/$2/build.log"
}
suite rmsnorm . 2
suite layer_norm norms/layer_norm 3
suite fused_add_layer_norm norms/fused_add_layer_norm 2
suite fused_add_rms_norm norms/fused_add_rms_norm 3
cp "$AH/1/layer_norm"/{bench_layer_norm.json,bench_layer_norm.png,benchmark.log} "$OUT/norms/layer_norm/"
cp "$AH/1/fused_add_layer_norm"/{bench_fused_add_layer_norm.json,bench_fused_add_layer_norm.png,benchmark.log} \
  "$OUT/norms/fused_add_layer_norm/"
echo "landed: now scaffold results-table --write"
