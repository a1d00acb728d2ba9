#!/usr/bin/env bash
# land_ab.sh, run once after call AB: puts its records where tests/test_results.py and
# `scaffold results-table` read them, as land_l.sh (never run; in git history) was to put call L's:
# - the RMSNorm example (results/): phase a's suite, the bench phase's benchmark;
# - LayerNorm (results/norms/layer_norm/): phase b2's suite (b's memcheck run aborted as its process
#   ended; b's record stays in runs/ab/b/), the bench phase's benchmark;
# - the residual-add RMSNorm and LayerNorm (results/norms/*/): phase a's suites and build logs, the
#   bench phase's benchmarks;
# - the two-family project (results/two_families/two_gpus/): phase b's suite, the bundle's
#   commit.txt and the copier answers. (results/two_families/ itself, the CUDA cases run by the
#   bundle's run.sh, stays from its earlier run, at the commit its commit.txt names.)
# It checks first and copies nothing unless every check passes: every file it copies is there; each
# suite passed with nothing failed and two GPUs visible, its memcheck and racecheck clean (but the
# two-family project's, run without), and measured the kernel sources its benchmark did, which
# finished; every phase ran the bundle of one commit. (Run once, as call AB's records came; the
# checks of the sanitizers, the files and the benchmarks' end were added after, on the review's word,
# and pass on those records.)
set -eu
# land_ab.sh [DIR]: DIR holds the phases' folders (bench/, a/, b/, and b2/ where LayerNorm's suite ran
# again alone), this script's folder by default: a later call of call_ab.sh (CALL=...) lands the same
# way, its folders unpacked into a runs/ folder of its own.
AB=$(cd "${1:-$(dirname "$0")}" && pwd); OUT=$(cd "$(dirname "$0")/../.." && pwd)  # benchmarks/results
LN=b/layer_norm; [ -d "$AB/b2/layer_norm" ] && LN=b2/layer_norm
suite_files="gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log"
python3 - "$AB" "$LN" <<'PY'
import json, sys
from pathlib import Path
ab = Path(sys.argv[1])
ln = sys.argv[2]
commits = {(ab / phase / "commit.txt").read_text() for phase in ("bench", "a", "b", ln.split("/")[0])}
problems = [f"the phases ran {len(commits)} commits' bundles"] if len(commits) != 1 else []
logs = ["gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log"]
needed = [f"{d}/{f}" for d in ("a/rmsnorm", ln) for f in [*logs, "build.log"]]
needed += [f"a/{p}/{f}" for p in ("fused_add_rms_norm", "fused_add_layer_norm") for f in logs]
needed += ["a/build_fused_add_rms_norm.log", "a/build_fused_add_layer_norm.log", "b/commit.txt"]
needed += ["b/two_families/gpu_suite.json", "b/two_families/tests.log"]
needed += [f"bench/{d}/{f}" for d, op in (("rmsnorm", "rms_norm"), ("layer_norm", "layer_norm"),
           ("fused_add_rms_norm", "fused_add_rms_norm"), ("fused_add_layer_norm", "fused_add_layer_norm"))
           for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log")]
problems += [f"missing: {f}" for f in needed if not (ab / f).is_file()]
if not list((ab / "b/two_families").glob("copier-answers*.yml")):
    problems.append("missing: b/two_families/copier-answers*.yml")
if problems:
    sys.exit("\n".join(problems))
for suite_dir, bench in (
    ("a/rmsnorm", "bench/rmsnorm/bench_rms_norm.json"),
    (ln, "bench/layer_norm/bench_layer_norm.json"),
    ("a/fused_add_rms_norm", "bench/fused_add_rms_norm/bench_fused_add_rms_norm.json"),
    ("a/fused_add_layer_norm", "bench/fused_add_layer_norm/bench_fused_add_layer_norm.json"),
    ("b/two_families", None),
):
    suite = json.loads((ab / suite_dir / "gpu_suite.json").read_text())
    env = suite["environment"]
    if suite.get("failed") or not suite.get("tests", {}).get("ok"):
        problems.append(f"{suite_dir}: failed {suite.get('failed')}")
    if env.get("gpu_count", 1) < 2:
        problems.append(f"{suite_dir}: {env.get('gpu_count')} GPU(s)")
    if bench:
        verdicts = {s["tool"]: s["verdict"] for s in suite.get("sanitizer", [])}
        if verdicts != {"memcheck": "clean", "racecheck": "clean"}:
            problems.append(f"{suite_dir}: compute-sanitizer {verdicts}")
        meta = json.loads((ab / bench).read_text())["meta"]
        if meta.get("sources_sha256") != env.get("sources_sha256"):
            problems.append(f"{suite_dir}, {bench}: other kernel sources")
        if f"bench {Path(bench).parent.name} exit 0 " not in (ab / "bench/console.txt").read_text():
            problems.append(f"{bench}: its benchmark did not end with exit 0 (bench/console.txt)")
sys.exit("\n".join(problems) or 0)
PY
for f in $suite_files build.log; do cp "$AB/a/rmsnorm/$f" "$OUT/$f"; done
cp "$AB"/bench/rmsnorm/{bench_rms_norm.json,bench_rms_norm.png,benchmark.log} "$OUT/"
N=$OUT/norms/layer_norm
for f in $suite_files build.log; do cp "$AB/$LN/$f" "$N/$f"; done
cp "$AB"/bench/layer_norm/{bench_layer_norm.json,bench_layer_norm.png,benchmark.log} "$N/"
for p in fused_add_rms_norm fused_add_layer_norm; do
  N=$OUT/norms/$p
  for f in $suite_files; do cp "$AB/a/$p/$f" "$N/$f"; done
  cp "$AB/a/build_$p.log" "$N/build.log"
  cp "$AB"/bench/$p/{bench_$p.json,bench_$p.png,benchmark.log} "$N/"
done
T=$OUT/two_families/two_gpus
cp "$AB"/b/two_families/{gpu_suite.json,tests.log} "$AB/b/commit.txt" "$T/"
cp "$AB"/b/two_families/copier-answers*.yml "$T/"
echo "landed: now scaffold results-table --write"
