#!/usr/bin/env bash
# land_ak.sh, run once after call AK: puts its records (call_ak.sh's phases 1 to 3 on two H200s,
# unpacked into this folder) where tests/test_results.py and `scaffold results-table` read them:
# - each norm's suite and build log: phase 2's residual-add RMSNorm and residual-add LayerNorm,
#   phase 3's LayerNorm and RMSNorm example (run again alone: phase 2's memcheck run aborted as its
#   process ended). Each ran with both GPUs visible, so it is also the norm's two-GPU run;
# - both residual-add norms' benchmarks (phase 1); RMSNorm's and LayerNorm's stay calls AB's and
#   AI's, as their kernels compile as before (ptxas: ak/ptxas/);
# - the two-family project's suite (phase 3) into two_families/two_gpus/, with its bundle's
#   commit.txt and copier answers.
# It checks first and copies nothing unless every check passes: every file it copies is there; all
# phases ran one commit's bundle, rendered without uncommitted changes; each suite passed with
# nothing failed, two GPUs visible and none of its two-GPU cases skipped, its tests.log ending with
# its gpu_suite.json's summary, memcheck then racecheck clean (but the two-family project's, run
# without); the first tests passed; each benchmark a full GPU run of its operator on its suite's
# kernel sources, against Liger-Kernel where it has the operator, with the cells of the table it
# replaces, that ended with exit 0. (land_ai.sh's checks, for this call's phases.) After the review
# of the landing it also checks that each suite ran the kernel sources the template renders now (or
# sources that differ from them only in comments: scaffold.results), that no suite deselected tests,
# and that every benchmark cell holds a device time for each implementation and a percentage where
# not host-bound; PYTHON (default python3) must import the repository's scaffold package (its venv).
# (Run again with those checks on call AK's records, it passed and changed no file.)
set -eu
AK=$(cd "$(dirname "$0")" && pwd); OUT=$(cd "$AK/../.." && pwd)  # benchmarks/results
"${PYTHON:-python3}" - "$AK" "$OUT" <<'PY'
import json, sys
from pathlib import Path
ak = Path(sys.argv[1])
sys.path.insert(0, str(ak.parents[5]))  # the repository: scaffold
from scaffold import results as scaffold_results
SUITES = {"fused_add_rms_norm": "2", "fused_add_layer_norm": "2", "layer_norm": "3", "rmsnorm": "3"}
BUILDS = {"fused_add_rms_norm": "2/build_fused_add_rms_norm.log", "fused_add_layer_norm": "2/build_fused_add_layer_norm.log",
          "layer_norm": "3/layer_norm/build.log", "rmsnorm": "3/build_rmsnorm.log"}
BENCHES = {"fused_add_rms_norm": ["liger"], "fused_add_layer_norm": []}
LOGS = ["gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log"]
needed = [f"{phase}/commit.txt" for phase in "123"] + [f"{phase}/console.txt" for phase in "123"]
needed += [f"{phase}/{norm}/{f}" for norm, phase in SUITES.items() for f in LOGS]
needed += list(BUILDS.values())
needed += [f"1/{op}/{f}" for op in BENCHES for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log")]
needed += ["3/two_families/gpu_suite.json", "3/two_families/tests.log"]
problems = [f"missing: {f}" for f in needed if not (ak / f).is_file()]
if not list((ak / "3/two_families").glob("copier-answers*.yml")):
    problems.append("missing: 3/two_families/copier-answers*.yml")
if problems:
    sys.exit("\n".join(problems))
commits = {(ak / phase / "commit.txt").read_text() for phase in "123"}
if len(commits) != 1:
    problems.append(f"the phases ran {len(commits)} commits' bundles")
if len((ak / "1" / "commit.txt").read_text().strip().splitlines()) > 1:
    problems.append("the bundle was rendered with uncommitted changes")
sources = {}
for folder in [f"{phase}/{norm}" for norm, phase in SUITES.items()] + ["3/two_families"]:
    suite = json.loads((ak / folder / "gpu_suite.json").read_text())
    summary = suite.get("tests", {}).get("summary") or ""
    if suite.get("failed") or not suite.get("tests", {}).get("ok") or " failed" in summary or " error" in summary:
        problems.append(f"{folder}: failed {suite.get('failed')}, {summary}")
    if suite["environment"].get("gpu_count", 1) < 2:
        problems.append(f"{folder}: {suite['environment'].get('gpu_count')} GPU(s)")
    log = (ak / folder / "tests.log").read_text()
    if "needs two CUDA devices" in log:  # (scaffold/results.py's _NEEDS_TWO_GPUS)
        problems.append(f"{folder}: its two-GPU cases were skipped")
    if summary.split(" in ")[0] not in (log.strip().splitlines() or [""])[-1]:
        problems.append(f"{folder}: tests.log is not the log of its gpu_suite.json's tests")
    if "deselected" in summary:
        problems.append(f"{folder}: its suite deselected tests ({summary})")
    recorded = suite["environment"].get("sources_sha256") or ""
    norm = folder.split("/")[1]
    if norm == "rmsnorm":
        sentence = scaffold_results.sources_statement(suite, scaffold_results.ROW_NORM_RESULTS_DIR.parents[1])
        current = "has not been measured" not in sentence and "earlier kernel sources" not in sentence
    elif norm != "two_families":
        current = scaffold_results.norm_sources_statement(norm, recorded)[0]
    else:
        current = True  # (its own rendering: the phases' commit.txt, checked above)
    if not current:
        problems.append(f"{folder}: it ran other kernel sources than the template renders now")
    if folder != "3/two_families":
        if [(s["tool"], s["verdict"]) for s in suite.get("sanitizer", [])] != [("memcheck", "clean"), ("racecheck", "clean")]:
            problems.append(f"{folder}: compute-sanitizer not clean")
        sources[folder.split("/")[1]] = suite["environment"].get("sources_sha256")
console = (ak / "1" / "console.txt").read_text()
for op in BENCHES:
    if f"first tests {op} exit 0 " not in console:
        problems.append(f"1/{op}: its first tests did not pass (1/console.txt)")
results = Path(sys.argv[2])
for op, peers in BENCHES.items():
    bench = json.loads((ak / "1" / op / f"bench_{op}.json").read_text())
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
    for r in bench["results"]:
        names = ["ours", "eager", "compile", *peers]
        host_bound = r.get("host_bound", r["copy_ms"] < 0.02)
        if not all(isinstance(r["device_ms"].get(n), float) for n in names) or (
            not host_bound and not all(isinstance(r["pct_of_copy"].get(n), float) for n in names)
        ):
            problems.append(f"1/{op}: cell {r['dtype']} {r['shape']} {r['pass']} lacks a time or a percentage")
sys.exit("\n".join(problems) or 0)
PY
suite() {  # suite NORM WHERE PHASE BUILD_LOG
  local f
  for f in gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log; do cp "$AK/$3/$1/$f" "$OUT/$2/$f"; done
  cp "$AK/$4" "$OUT/$2/build.log"
}
suite fused_add_rms_norm norms/fused_add_rms_norm 2 2/build_fused_add_rms_norm.log
suite fused_add_layer_norm norms/fused_add_layer_norm 2 2/build_fused_add_layer_norm.log
suite layer_norm norms/layer_norm 3 3/layer_norm/build.log
suite rmsnorm . 3 3/build_rmsnorm.log
for op in fused_add_rms_norm fused_add_layer_norm; do
  cp "$AK/1/$op"/{bench_$op.json,bench_$op.png,benchmark.log} "$OUT/norms/$op/"
done
T=$OUT/two_families/two_gpus
rm -f "$T"/copier-answers*.yml
cp "$AK"/3/two_families/{gpu_suite.json,tests.log} "$AK/3/commit.txt" "$T/"
cp "$AK"/3/two_families/copier-answers*.yml "$T/"
echo "landed: now scaffold results-table --write"
