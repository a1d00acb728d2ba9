#!/usr/bin/env bash
# land_ag.sh: puts call AG's suites (phases a, b, c on one H200, unpacked into this folder) where
# tests/test_results.py and `scaffold results-table` read them. For each norm (the RMSNorm example's
# in results/, the others' in results/norms/NAME/): the suite that ran there before, call AB's with two
# GPUs visible, moves to its two_gpus/ folder (gpu_suite.json, tests.log), which the tables take for
# the second-device and DDP cases that a one-GPU suite skips (the README says that it ran other kernel
# sources); AG's suite takes its place (gpu_suite.json, tests.log, the sanitizer logs, and its phase's
# build log as build.log). The benchmarks stay call AB's. It checks first and moves nothing unless each
# AG suite passed with nothing failed and compute-sanitizer clean, all of one commit's bundle, and
# each record it moves to two_gpus/ saw two GPUs.
set -eu
AG=$(cd "$(dirname "$0")" && pwd); OUT=$(cd "$AG/../.." && pwd)  # benchmarks/results
python3 - "$AG" "$OUT" <<'PY'
import json, sys
from pathlib import Path
ag, out = Path(sys.argv[1]), Path(sys.argv[2])
NORMS = {"rmsnorm": (".", "c"), "layer_norm": ("norms/layer_norm", "a"),
         "fused_add_layer_norm": ("norms/fused_add_layer_norm", "b"),
         "fused_add_rms_norm": ("norms/fused_add_rms_norm", "c")}
problems = []
if len({(ag / phase / "commit.txt").read_text() for phase in "abc"}) != 1:
    problems.append("the phases ran more than one commit's bundle")
for norm, (where, phase) in NORMS.items():
    suite = json.loads((ag / phase / norm / "gpu_suite.json").read_text())
    summary = suite.get("tests", {}).get("summary") or ""
    if suite.get("failed") or not suite.get("tests", {}).get("ok") or " failed" in summary or " error" in summary:
        problems.append(f"{phase}/{norm}: failed {suite.get('failed')}, {summary}")
    if {s["tool"]: s["verdict"] for s in suite.get("sanitizer", [])} != {"memcheck": "clean", "racecheck": "clean"}:
        problems.append(f"{phase}/{norm}: compute-sanitizer not clean")
    before = json.loads((out / where / "gpu_suite.json").read_text())
    if (out / where / "two_gpus").exists():
        problems.append(f"{where}/two_gpus/ is there already")
    elif before["environment"].get("gpu_count", 1) < 2:
        problems.append(f"{where}: the suite there ran with {before['environment'].get('gpu_count')} GPU(s)")
sys.exit("\n".join(problems) or 0)
PY
land() {  # land NORM WHERE PHASE
  local to=$OUT/$2 f
  mkdir "$to/two_gpus" && mv "$to/gpu_suite.json" "$to/tests.log" "$to/two_gpus/"
  for f in gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log; do
    cp "$AG/$3/$1/$f" "$to/$f"
  done
  cp "$AG/$3/build_$1.log" "$to/build.log"
}
land rmsnorm . c
land layer_norm norms/layer_norm a
land fused_add_layer_norm norms/fused_add_layer_norm b
land fused_add_rms_norm norms/fused_add_rms_norm c
echo "landed: now scaffold results-table --write"
