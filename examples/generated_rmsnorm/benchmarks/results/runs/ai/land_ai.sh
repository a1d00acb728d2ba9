#!/usr/bin/env bash
# land_ai.sh, run once after call AI: puts its records (call_ai.sh's phases 1 to 4 on two H200s,
# unpacked into this folder) where tests/test_results.py and `scaffold results-table` read them:
# - each norm's suite and build log (the RMSNorm example's and LayerNorm's from their suites' own
#   builds; the residual-add norms' from their phases' builds): phase 2's RMSNorm example and
#   residual-add LayerNorm, phase 3's LayerNorm and residual-add RMSNorm (run again alone: phase 2's
#   memcheck run aborted as its process ended). Each ran with both GPUs visible, so it is also the
#   norm's two-GPU run, and each norm's two_gpus/ folder (call AB's two-GPU suites, of other kernel
#   sources) goes (git history keeps them, and runs/ab/ the records they came from);
# - LayerNorm's and the residual-add LayerNorm's benchmarks (phase 1); the RMSNorms' stay call AB's;
# - the two-family project's suite (phase 4) into two_families/two_gpus/, with its bundle's
#   commit.txt and copier answers.
# It checks first and copies nothing unless every check passes: every file it copies is there; all
# phases ran one commit's bundle, rendered without uncommitted changes; each suite passed with
# nothing failed and two GPUs visible, memcheck and racecheck clean (but the two-family project's,
# run without); each benchmark a full GPU run of its operator on its suite's kernel sources, against
# Liger-Kernel where it has the operator, that ended with exit 0. (Run once, as call AI's records
# came; after the review of the landing it also checks that no suite skipped its two-GPU cases, that
# each tests.log ends with its gpu_suite.json's summary, that the sanitizer list is memcheck then
# racecheck, both clean, that the first tests passed and that each benchmark holds the cells of the
# table it replaces. On call AI's records these pass, checked against the tables before the landing:
# `git show 1572ba6^:...`.)
set -eu
AI=$(cd "$(dirname "$0")" && pwd); OUT=$(cd "$AI/../.." && pwd)  # benchmarks/results
python3 - "$AI" "$OUT" <<'PY'
import json, sys
from pathlib import Path
ai = Path(sys.argv[1])
SUITES = {"rmsnorm": "2", "fused_add_layer_norm": "2", "layer_norm": "3", "fused_add_rms_norm": "3"}
BENCHES = {"layer_norm": ["liger"], "fused_add_layer_norm": []}
LOGS = ["gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log"]
needed = [f"{phase}/commit.txt" for phase in "1234"] + ["1/console.txt"]
needed += [f"{phase}/{norm}/{f}" for norm, phase in SUITES.items() for f in LOGS]
needed += ["2/rmsnorm/build.log", "3/layer_norm/build.log"]
needed += ["2/build_fused_add_layer_norm.log", "3/build_fused_add_rms_norm.log"]
needed += [f"1/{op}/{f}" for op in BENCHES for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log")]
needed += ["4/two_families/gpu_suite.json", "4/two_families/tests.log"]
problems = [f"missing: {f}" for f in needed if not (ai / f).is_file()]
if not list((ai / "4/two_families").glob("copier-answers*.yml")):
    problems.append("missing: 4/two_families/copier-answers*.yml")
if problems:
    sys.exit("\n".join(problems))
commits = {(ai / phase / "commit.txt").read_text() for phase in "1234"}
if len(commits) != 1:
    problems.append(f"the phases ran {len(commits)} commits' bundles")
if len((ai / "1" / "commit.txt").read_text().strip().splitlines()) > 1:
    problems.append("the bundle was rendered with uncommitted changes")
sources = {}
for folder in [f"{phase}/{norm}" for norm, phase in SUITES.items()] + ["4/two_families"]:
    suite = json.loads((ai / folder / "gpu_suite.json").read_text())
    summary = suite.get("tests", {}).get("summary") or ""
    if suite.get("failed") or not suite.get("tests", {}).get("ok") or " failed" in summary or " error" in summary:
        problems.append(f"{folder}: failed {suite.get('failed')}, {summary}")
    if suite["environment"].get("gpu_count", 1) < 2:
        problems.append(f"{folder}: {suite['environment'].get('gpu_count')} GPU(s)")
    log = (ai / folder / "tests.log").read_text()
    if "needs two CUDA devices" in log:  # (scaffold/results.py's _NEEDS_TWO_GPUS)
        problems.append(f"{folder}: its two-GPU cases were skipped")
    if summary.split(" in ")[0] not in (log.strip().splitlines() or [""])[-1]:
        problems.append(f"{folder}: tests.log is not the log of its gpu_suite.json's tests")
    if folder != "4/two_families":
        if [(s["tool"], s["verdict"]) for s in suite.get("sanitizer", [])] != [("memcheck", "clean"), ("racecheck", "clean")]:
            problems.append(f"{folder}: compute-sanitizer not clean")
        sources[folder.split("/")[1]] = suite["environment"].get("sources_sha256")
console = (ai / "1" / "console.txt").read_text()
for op in BENCHES:
    if f"first tests {op} exit 0 " not in console:
        problems.append(f"1/{op}: its first tests did not pass (1/console.txt)")
results = Path(sys.argv[2])
for op, peers in BENCHES.items():
    bench = json.loads((ai / "1" / op / f"bench_{op}.json").read_text())
    meta = bench["meta"]
    cells = lambda b: {(r["dtype"], tuple(r["shape"]), r["pass"]) for r in b["results"]}
    if cells(bench) != cells(json.loads((results / "norms" / op / f"bench_{op}.json").read_text())):
        problems.append(f"1/{op}: its benchmark's cells are not those of the table it replaces")
    if meta.get("sources_sha256") != sources[op]:
        problems.append(f"1/{op}: its benchmark measured other kernel sources than its suite")
    if (meta.get("device_type") != "gpu" or meta.get("quick") or not meta.get("liger_version")
            or meta.get("peers") != peers or not meta.get("op", "").endswith(f"::{op}")):
        problems.append(f"1/{op}: its benchmark is not a full GPU run against {peers or 'no peer'}")
    if f"bench {op} exit 0 " not in console:
        problems.append(f"1/{op}: its benchmark did not end with exit 0 (1/console.txt)")
sys.exit("\n".join(problems) or 0)
PY
suite() {  # suite NORM WHERE PHASE BUILD_LOG
  local f
  for f in gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log; do cp "$AI/$3/$1/$f" "$OUT/$2/$f"; done
  cp "$AI/$3/$4" "$OUT/$2/build.log"
  rm -rf "$OUT/$2/two_gpus"
}
suite rmsnorm . 2 rmsnorm/build.log
suite fused_add_layer_norm norms/fused_add_layer_norm 2 build_fused_add_layer_norm.log
suite layer_norm norms/layer_norm 3 layer_norm/build.log
suite fused_add_rms_norm norms/fused_add_rms_norm 3 build_fused_add_rms_norm.log
for op in layer_norm fused_add_layer_norm; do
  cp "$AI/1/$op"/{bench_$op.json,bench_$op.png,benchmark.log} "$OUT/norms/$op/"
done
T=$OUT/two_families/two_gpus
rm -f "$T"/copier-answers*.yml
cp "$AI"/4/two_families/{gpu_suite.json,tests.log} "$AI/4/commit.txt" "$T/"
cp "$AI"/4/two_families/copier-answers*.yml "$T/"
echo "landed: now scaffold results-table --write"
