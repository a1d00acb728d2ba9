#!/usr/bin/env bash
# land_ac.sh [DIR]: puts landing call AC's records (call_ac1.sh's phases s1-s4, b1, b2 on one GPU and
# call_ac2.sh's suites on two, unpacked into DIR/PHASE/ and DIR/two/; DIR is this script's folder by
# default) where tests/test_results.py and `scaffold results-table` read them, as ../ab/land_ab.sh put
# call AB's:
# - each norm's suite (the RMSNorm example's in results/, the others' in results/norms/NAME/): its
#   phase's gpu_suite.json, tests.log, sanitizer logs and build.log, and its benchmark (b1 or b2);
# - each norm's run on two GPUs in its two_gpus/ folder, which the tables and tests take for the
#   second-device and DDP cases that the one-GPU suite skipped;
# - the two-family project's run on two GPUs in results/two_families/two_gpus/, with the bundle's
#   commit.txt and the copier answers (results/two_families/ itself, the CUDA cases of the bundle's
#   run.sh, stays from its earlier run).
# It checks first and copies nothing unless every check passes: every file it copies is there; every
# phase ran the bundle of one commit; each suite passed with nothing failed, its build and
# compute-sanitizer's memcheck and racecheck clean, on the kernel sources its benchmark measured, and
# its benchmark ended with exit 0; each two-GPU run saw two GPUs, passed with nothing failed and no case
# skipped for want of a second GPU, and (the norms') ran the sources of the norm's suite.
set -eu
AC=$(cd "${1:-$(dirname "$0")}" && pwd); OUT=$(cd "$(dirname "$0")/../.." && pwd)  # benchmarks/results
python3 - "$AC" <<'PY'
import json, sys
from pathlib import Path
ac = Path(sys.argv[1])
# norm: (where its records go below benchmarks/results, its suite's phase, its benchmark's phase, op)
NORMS = {
    "rmsnorm": (".", "s1", "b1", "rms_norm"),
    "layer_norm": ("norms/layer_norm", "s2", "b1", "layer_norm"),
    "fused_add_rms_norm": ("norms/fused_add_rms_norm", "s3", "b2", "fused_add_rms_norm"),
    "fused_add_layer_norm": ("norms/fused_add_layer_norm", "s4", "b2", "fused_add_layer_norm"),
}
PHASES = ["s1", "s2", "s3", "s4", "b1", "b2", "two"]
SUITE = ["gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log", "build.log"]
needed = [f"{phase}/commit.txt" for phase in PHASES] + ["b1/console.txt", "b2/console.txt"]
for norm, (_, suite, bench, op) in NORMS.items():
    needed += [f"{suite}/{norm}/{f}" for f in SUITE]
    needed += [f"{bench}/{norm}/{f}" for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log")]
for project in [*NORMS, "two_families"]:
    needed += [f"two/{project}/gpu_suite.json", f"two/{project}/tests.log"]
problems = [f"missing: {f}" for f in needed if not (ac / f).is_file()]
if not list((ac / "two/two_families").glob("copier-answers*.yml")):
    problems.append("missing: two/two_families/copier-answers*.yml")
if problems:
    sys.exit("\n".join(problems))
commits = {(ac / phase / "commit.txt").read_text() for phase in PHASES}
if len(commits) != 1:
    problems.append(f"the phases ran {len(commits)} commits' bundles")


def two_gpu_problems(where):
    run = json.loads((ac / where / "gpu_suite.json").read_text())
    found = []
    if run["environment"].get("gpu_count", 1) < 2:
        found.append(f"{where}: {run['environment'].get('gpu_count')} GPU(s)")
    summary = run.get("tests", {}).get("summary") or ""
    if run.get("failed") or not run.get("tests", {}).get("ok") or " failed" in summary or " error" in summary:
        found.append(f"{where}: failed {run.get('failed')}, {summary}")
    if "needs two CUDA devices" in (ac / where / "tests.log").read_text():
        found.append(f"{where}: skipped cases for want of a second GPU")
    return run, found


for norm, (_, phase, bench_phase, op) in NORMS.items():
    where = f"{phase}/{norm}"
    suite = json.loads((ac / where / "gpu_suite.json").read_text())
    if suite.get("failed") or not suite.get("tests", {}).get("ok") or not suite.get("build", {}).get("ok"):
        problems.append(f"{where}: failed {suite.get('failed')}")
    verdicts = {s["tool"]: s["verdict"] for s in suite.get("sanitizer", [])}
    if verdicts != {"memcheck": "clean", "racecheck": "clean"}:
        problems.append(f"{where}: compute-sanitizer {verdicts}")
    sources = suite["environment"].get("sources_sha256")
    meta = json.loads((ac / bench_phase / norm / f"bench_{op}.json").read_text())["meta"]
    if meta.get("sources_sha256") != sources:
        problems.append(f"{where}, its benchmark: other kernel sources")
    # What tests/test_results.py asks of a benchmark: on the GPU, in full, of this operator, with
    # Liger-Kernel installed and run wherever it has the operator (not after a residual add to a
    # LayerNorm); b1 and b2 without a carried .whl/ would run without it and still end with exit 0.
    residual = norm.startswith("fused_add")
    peers = [] if norm == "fused_add_layer_norm" else ["liger"]
    if (meta.get("device_type") != "gpu" or meta.get("quick") or not meta.get("liger_version")
            or meta.get("peers") != peers or not meta.get("op", "").endswith(f"::{op}")
            or meta.get("residual_add", False) != residual):
        problems.append(f"{bench_phase}/{norm}: its benchmark is not a full GPU run against {peers or 'no peer'}")
    if f"bench {norm} exit 0 " not in (ac / bench_phase / "console.txt").read_text():
        problems.append(f"{bench_phase}/{norm}: its benchmark did not end with exit 0 ({bench_phase}/console.txt)")
    run, found = two_gpu_problems(f"two/{norm}")
    problems += found
    if run["environment"].get("sources_sha256") != sources:
        problems.append(f"two/{norm}: other kernel sources than {where}")
problems += two_gpu_problems("two/two_families")[1]
sys.exit("\n".join(problems) or 0)
PY
land() {  # land NORM WHERE SUITE_PHASE BENCH_PHASE OP
  local to=$OUT/$2 f
  for f in gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log build.log; do
    cp "$AC/$3/$1/$f" "$to/$f"
  done
  cp "$AC/$4/$1"/{bench_$5.json,bench_$5.png,benchmark.log} "$to/"
  mkdir -p "$to/two_gpus" && cp "$AC/two/$1"/{gpu_suite.json,tests.log} "$to/two_gpus/"
}
land rmsnorm . s1 b1 rms_norm
land layer_norm norms/layer_norm s2 b1 layer_norm
land fused_add_rms_norm norms/fused_add_rms_norm s3 b2 fused_add_rms_norm
land fused_add_layer_norm norms/fused_add_layer_norm s4 b2 fused_add_layer_norm
T=$OUT/two_families/two_gpus
cp "$AC"/two/two_families/{gpu_suite.json,tests.log} "$AC/two/commit.txt" "$T/"
rm -f "$T"/copier-answers*.yml && cp "$AC"/two/two_families/copier-answers*.yml "$T/"
echo "landed: now scaffold results-table --write"
