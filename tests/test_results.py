"""The committed GPU results and the README tables generated from them."""

import json
import re
import shutil
import subprocess

import pytest

from scaffold import gpu, results


def _shallow() -> bool:
    """A shallow clone, or no git history at all (an archive of the repository)."""
    root = results.render.TEMPLATE_ROOT
    done = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=root, capture_output=True, text=True)
    return done.returncode != 0 or done.stdout.strip() == "true"


@pytest.mark.skipif(_shallow(), reason="the tables name a measured commit: a shallow clone or an archive lacks it")
@pytest.mark.parametrize("readme", results.READMES, ids=lambda path: path.name)
def test_readme_tables_match_the_recorded_results(readme):
    text = readme.read_text()
    assert results.section_of(text) == results.tables(), "run: scaffold results-table --write"
    start, end = results.ROW_NORM_START, results.ROW_NORM_END
    assert results.section_of(text, start, end) == results.row_norm_tables(), "run: scaffold results-table --write"


def test_the_example_passed_everything_on_the_gpu():
    suite = json.loads((results.RESULTS_DIR / "gpu_suite.json").read_text())
    assert suite["failed"] == []
    assert suite["build"]["ok"] and suite["tests"]["ok"] and " failed" not in suite["tests"]["summary"]
    assert [s["verdict"] for s in suite["sanitizer"]] == ["clean", "clean"]
    for key in ("date", "gpu", "torch", "torch_cuda", "nvcc"):
        assert suite["environment"][key]


@pytest.mark.parametrize("activation", ["gelu", "relu", "silu", "sigmoid"])
def test_every_activation_was_benchmarked_and_tested_on_the_gpu(activation):
    folder = results.RESULTS_DIR / "activations" / activation
    suite = json.loads((folder / "gpu_suite.json").read_text())
    bench = json.loads(next(folder.glob("bench_*.json")).read_text())
    assert suite["failed"] == [] and suite["tests"]["ok"]
    assert bench["meta"]["activation"] == activation and bench["meta"]["device_type"] == "gpu"


def test_the_example_passed_on_two_gpus():
    suite = json.loads((results.RESULTS_DIR / "two_gpus" / "gpu_suite.json").read_text())
    assert suite["environment"]["gpu_count"] == 2 and suite["tests"]["ok"]
    assert "skipped" not in suite["tests"]["summary"]  # the second-device test ran


def test_a_project_with_three_operators_passed_on_the_gpu():
    folder = results.RESULTS_DIR / "three_operators"
    suite = json.loads((folder / "gpu_suite.json").read_text())
    assert suite["build"]["ok"]
    assert {s["op"] for s in suite["sanitizer"]} == {"fused_bias_gelu", "bias_silu", "bias_relu"}
    assert all(s["verdict"] == "clean" for s in suite["sanitizer"])
    # The first run caught the owner's kernel failing on empty tensors; the run after its fix passed.
    assert suite["failed"] == ["tests"] and suite["tests"]["summary"].startswith("2 failed")
    after_fix = (folder / "tests_after_fix.log").read_text().strip().splitlines()[-1]
    assert " passed" in after_fix and "failed" not in after_fix and "error" not in after_fix


def test_the_cpu_loops_were_measured_against_eager_and_torch_compile():
    bench = json.loads(next((results.RESULTS_DIR / "cpu").glob("bench_*.json")).read_text())
    assert bench["meta"]["device_type"] == "cpu" and bench["meta"]["compile"]
    measured = {(row["dtype"], tuple(row["shape"]), row["pass"], row["threads"]) for row in bench["results"]}
    for dtype in ("float32", "bfloat16"):
        for shape in ((4096, 4096), (256, 1024)):
            for pass_name in ("forward", "forward+backward"):
                assert {(dtype, shape, pass_name, threads) for threads in (1, 2)} <= measured
    assert all(row["ms"]["eager"] and row["ms"]["compile"] for row in bench["results"])


def test_code_ignores_comments_and_blank_lines_but_not_code():
    before = {"a.h": b"// one\nint x = 1;  // why\n\n/* block\n comment */int y;\n"}
    comments_changed = {"a.h": b"// another\nint x = 1;\nint y;\n"}
    code_changed = {"a.h": b"// one\nint x = 2;\nint y;\n"}
    assert results._code(before) == results._code(comments_changed)
    assert results._code(before) != results._code(code_changed)
    assert results._code(before) != results._code({"b.h": before["a.h"]})  # a renamed file counts


@pytest.mark.parametrize(
    ("example", "folder"),
    [
        (results.render.EXAMPLE_DIR, results.RESULTS_DIR),
        (results.ROW_NORM_RESULTS_DIR.parents[1], results.ROW_NORM_RESULTS_DIR),
    ],
    ids=["gelu", "rmsnorm"],
)
def test_the_commit_each_example_run_measured_is_found(example, folder):
    """The README names it when the sources changed since; this checks the lookup on today's records."""
    if _shallow():
        pytest.skip("a shallow clone lacks the measured commit")
    recorded = json.loads((folder / "gpu_suite.json").read_text())["environment"]["sources_sha256"]
    commit = results.measured_commit(recorded, example)
    assert commit and results._digest(results._example_csrc_at(commit, example)) == recorded


def test_a_record_of_a_past_rendering_is_current_only_where_its_code_is_todays(monkeypatch):
    # Today's in its CUDA code: the same but for comments, or for the CPU loops (which CI tests), which
    # the sentence then names.
    then = {"row_norm/cuda.cuh": b"// measured\nint steps = 5;\n", "row_norm/cpu.h": b"int rows = 4;\n"}
    recorded = results._digest(then)
    monkeypatch.setattr(results, "norm_measured_commit", lambda name, digest: "c0ffee" if digest == recorded else None)
    for now, current, says in (
        ({**then, "row_norm/cuda.cuh": b"// measured, and said better\nint steps = 5;\n"}, True, "only in comments"),
        ({**then, "row_norm/cpu.h": b"int rows = 8;\n"}, True, "CPU loops (`csrc/row_norm/cpu.h`"),
        ({**then, "row_norm/cuda.cuh": b"// measured\nint steps = 6;\n"}, False, "has not been re-run"),
        ({"row_norm/cuda.cuh": b"int steps = 6;\n", "row_norm/cpu.h": b"int rows = 8;\n"}, False, "re-run"),
    ):
        monkeypatch.setattr(results, "norm_csrc", lambda name, commit=None, now=now: then if commit else now)
        is_current, sentence = results.norm_sources_statement("layer_norm", recorded)
        assert is_current is current and says in sentence


def test_the_cpu_loop_files_are_no_cuda_translation_unit_s():
    # A record that differs from today's only in CPU_LOOP_FILES counts as today's for the CUDA kernels:
    # none of those files may reach a .cu file's compilation, in either example or any other norm.
    trees = [
        results._csrc_files(example / "csrc")
        for example in (results.render.EXAMPLE_DIR, results.ROW_NORM_RESULTS_DIR.parents[1])
    ]
    trees += [results.norm_csrc(name) for name in gpu.OTHER_NORMS]
    for files in trees:
        assert results.CPU_LOOP_FILES & set(files), "the CPU loops are where CPU_LOOP_FILES says"
        assert not results.CPU_LOOP_FILES & results._cuda_reached(files)
    # and the check sees an include, were one added
    files = {
        "op_cuda.cu": b'#include "row_norm/cuda.cuh"\n',
        "row_norm/cuda.cuh": b'#include "core/cpu_vector.h"\n',
        "core/cpu_vector.h": b"",
    }
    assert results._cuda_reached(files) == set(files)
    assert not results._cpu_loops_only(files, files, {"core/cpu_vector.h"})


def test_an_activation_run_is_looked_up_only_in_commits_written_before_it(monkeypatch):
    then = {"bias_activation/cuda.cuh": b"// measured\nint steps = 5;\n"}
    recorded = results._digest(then)
    rendered = []

    def activation_csrc(activation, commit=None):
        rendered.append(commit)
        return then if commit else {"bias_activation/cuda.cuh": b"// said better\nint steps = 5;\n"}

    monkeypatch.setattr(results, "activation_csrc", activation_csrc)
    monkeypatch.setattr(results, "_commits_differing_only_in_comments", lambda: (("c0ffee", 1_000_000),))
    after = {"sources_sha256": recorded, "date": "1970-01-12T14:00:00+00:00"}  # 1,000,800 s
    assert results._measured_current_code("relu", after) is True and rendered == [None, "c0ffee"]
    rendered.clear()
    before = {"sources_sha256": recorded, "date": "1970-01-12T13:00:00+00:00"}  # 997,200 s
    assert results._measured_current_code("relu", before) is False and rendered == [None]


def test_the_commits_an_activation_run_is_looked_up_in_differ_from_today_only_in_comments():
    if _shallow():
        pytest.skip("a shallow clone lacks the history")
    now = results._code(results._csrc_files(results.render.EXAMPLE_DIR / "csrc"))
    commits = results._commits_differing_only_in_comments()
    assert len(commits) <= results._ACTIVATION_COMMITS_SEARCHED
    for commit, written_after in commits:
        assert results._code(results._example_csrc_at(commit)) == now and written_after >= 0


def test_a_record_of_unknown_sources_is_not_taken_for_the_current_ones():
    current, sentence = results.norm_sources_statement("layer_norm", "0" * 64)
    assert not current and "has not been re-run" in sentence


def test_the_rmsnorm_example_passed_everything_on_the_gpu_against_every_peer():
    folder = results.ROW_NORM_RESULTS_DIR
    suite = json.loads((folder / "gpu_suite.json").read_text())
    assert suite["failed"] == [] and suite["tests"]["ok"] and " failed" not in suite["tests"]["summary"]
    assert [s["verdict"] for s in suite["sanitizer"]] == ["clean", "clean"]
    bench = json.loads(next(folder.glob("bench_*.json")).read_text())
    assert bench["meta"]["device_type"] == "gpu" and not bench["meta"]["quick"]
    assert bench["meta"]["peers"] == ["liger"] and bench["meta"]["compile"]


@pytest.mark.parametrize("name", list(gpu.OTHER_NORMS))
def test_each_other_norm_was_tested_benchmarked_and_sanitized_on_the_gpu(name):
    # Each of the family's other operators that gpu-bundle renders: its suite, its sanitizer run and
    # its benchmark (against Liger-Kernel where Liger has the operator), on the kernel sources the
    # template renders for it now.
    folder = results.ROW_NORM_RESULTS_DIR / "norms" / name
    suite = json.loads((folder / "gpu_suite.json").read_text())
    bench = json.loads(next(folder.glob("bench_*.json")).read_text())
    assert suite["failed"] == [] and suite["tests"]["ok"] and " failed" not in suite["tests"]["summary"]
    assert [s["verdict"] for s in suite["sanitizer"]] == ["clean", "clean"]
    # Liger-Kernel was installed, so the benchmark ran it wherever it has the operator (which the
    # family's benchmark harness knows: LayerNorm after a residual add has no Liger peer).
    assert bench["meta"]["liger_version"] and bench["meta"]["peers"] in ([], ["liger"])
    assert bench["meta"]["op"].endswith(f"::{name}") and not bench["meta"]["quick"]
    assert bench["meta"].get("residual_add", False) == gpu.OTHER_NORMS[name].get("residual_add", False)
    recorded = suite["environment"]["sources_sha256"]
    if recorded != results._digest(results.norm_csrc(name)) and _shallow():
        pytest.skip("the sources differ from today's rendering; whether only in comments needs the git history")
    current, _ = results.norm_sources_statement(name, recorded)
    assert current, "re-run it on the GPU"


@pytest.mark.parametrize("name", list(gpu.ZERO_CENTERED_NORMS))
def test_each_zero_centred_norm_was_tested_benchmarked_and_sanitized_on_the_gpu(name):
    # RMSNorm's zero-centred answers (their own kernels: kWeightOffset 1): their suite, sanitizer run
    # and benchmark against Liger-Kernel's gemma mode, the benchmark on the suite's sources. A landing
    # of new kernels need not re-run them (scaffold/gpu.py), so those may be earlier sources than
    # today's, which the README's table must then say.
    folder = results.ROW_NORM_RESULTS_DIR / "norms" / name
    suite = json.loads((folder / "gpu_suite.json").read_text())
    bench = json.loads((folder / f"bench_{name}.json").read_text())
    assert suite["failed"] == [] and suite["tests"]["ok"] and " failed" not in suite["tests"]["summary"]
    assert [s["verdict"] for s in suite["sanitizer"]] == ["clean", "clean"]
    meta = bench["meta"]
    assert meta["device_type"] == "gpu" and not meta["quick"] and meta["op"].endswith(f"::{name}")
    assert meta["zero_centered_weight"] and meta["peers"] == ["liger"] and meta["liger_version"]
    assert meta["residual_add"] == gpu.ZERO_CENTERED_NORMS[name].get("residual_add", False)
    assert meta["sources_sha256"] == suite["environment"]["sources_sha256"]
    if _shallow():
        pytest.skip("which sources the record measured, against today's, needs the git history")
    # The README's table says which kernel sources the record measured: today's or earlier ones.
    _, sentence = results.norm_sources_statement(name, suite["environment"]["sources_sha256"])
    readme = results.READMES[0].read_text()
    assert sentence in readme or results._of_the_suite(sentence) in readme


def test_a_project_with_an_operator_of_each_family_passed_its_cuda_cases():
    last = (results.ROW_NORM_RESULTS_DIR / "two_families" / "tests_cuda.log").read_text().strip().splitlines()[-1]
    assert " passed" in last and "failed" not in last and "error" not in last


@pytest.mark.parametrize("folder", ["", *(f"norms/{name}" for name in gpu.OTHER_NORMS), "two_families"])
def test_every_norm_and_the_two_family_project_passed_on_two_gpus(folder):
    # With both GPUs visible: nothing failed and nothing was skipped for want of a second GPU (the
    # second-device tests and DistributedDataParallel over NCCL ran). A run of its own (two_gpus/), or
    # the norm's suite where it ran with two GPUs visible. A run of its own on other kernel sources than
    # the norm's suite (sessions lent one GPU re-run the suites alone) must be said so in the README.
    record = results.ROW_NORM_RESULTS_DIR / folder / "two_gpus" / "gpu_suite.json"
    if not record.is_file():
        record = record.parent.parent / "gpu_suite.json"
    run = json.loads(record.read_text())
    assert run["environment"]["gpu_count"] >= 2 and run["tests"]["ok"] and run["failed"] == []
    assert " failed" not in run["tests"]["summary"] and " error" not in run["tests"]["summary"]
    assert results._NEEDS_TWO_GPUS not in record.with_name("tests.log").read_text()
    if folder != "two_families" and record.parent.name == "two_gpus":  # a run apart from the suite
        suite = json.loads((results.ROW_NORM_RESULTS_DIR / folder / "gpu_suite.json").read_text())
        digest = run["environment"]["sources_sha256"]
        if digest != suite["environment"]["sources_sha256"]:
            said = f"other kernel sources than its table's suite: `csrc/` SHA-256 `{digest[:12]}`"
            where = record.parent.relative_to(results.ROW_NORM_RESULTS_DIR.parent).as_posix()
            assert f"(`{where}/`; {said}" in results.READMES[0].read_text()
    if folder == "two_families":  # which template it ran
        assert re.fullmatch(r"[0-9a-f]{40}", record.with_name("commit.txt").read_text().split()[0])


def test_the_two_gpu_line_says_which_runs_skipped_their_two_gpu_cases(tmp_path):
    folder = tmp_path / "results"
    shutil.copytree(results.ROW_NORM_RESULTS_DIR, folder, ignore=shutil.ignore_patterns("runs", "*.png", "cpu"))
    assert "(NCCL) included" in results.two_gpu_runs(folder) and "cases skipped" not in results.two_gpu_runs(folder)
    # The log of LayerNorm's run with two GPUs visible, by two_gpu_runs' rule: its two_gpus/ run's where
    # that folder holds a record, else its suite's.
    apart = folder / "norms" / "layer_norm" / "two_gpus"
    log = (apart if (apart / "gpu_suite.json").is_file() else apart.parent) / "tests.log"
    log.write_text(f"SKIPPED [2] tests/suites/row_norm.py:298: {results._NEEDS_TWO_GPUS}\n" + log.read_text())
    line = results.two_gpu_runs(folder)
    assert "(NCCL) included" not in line and "its two-GPU cases skipped" in line
    assert line.count("its two-GPU cases skipped") == 1
    # Suites run with one GPU are no two-GPU runs.
    for record in [folder / "gpu_suite.json", *(folder / "norms").glob("*/gpu_suite.json")]:
        run = json.loads(record.read_text())
        run["environment"]["gpu_count"] = 1
        record.write_text(json.dumps(run))
    for runs_apart in list(folder.glob("**/two_gpus")):
        shutil.rmtree(runs_apart)
    assert results.two_gpu_runs(folder) == ""


def test_the_earlier_runs_statement_names_only_the_runs_before_the_table(monkeypatch):
    main = {"date": "2026-11-23T00:00:00+00:00", "sources_sha256": "ab" * 32}
    monkeypatch.setattr(results, "_load", lambda path: {"environment": main})
    before, after = {"date": "2026-11-22T00:00:00+00:00"}, {"date": "2026-11-28T00:00:00+00:00"}
    assert results._earlier_runs_statement([("first", after), ("second", after)]) == ""
    assert results._earlier_runs_statement([("first", before), ("second", before)]).startswith(" Both ran")
    one = results._earlier_runs_statement([("first", before), ("second", after)])
    assert one.startswith(" The first ran on the template's kernels of 2026-11-22") and "has not" in one
    assert "second" not in one


def test_a_suite_run_apart_from_its_benchmark_is_dated_apart():
    # gpu_suite.py dates a run at its start and benchmarks last: a benchmark up to 3 hours later is its own.
    assert results._when("2026-11-28T15:01:00+00:00", "2026-11-28T14:59:00+00:00") == "measured 2026-11-28"
    assert results._when("2026-11-28T17:58:00+00:00", "2026-11-28T15:00:00+00:00") == "measured 2026-11-28"
    assert results._when("2026-11-28T15:30:00", "2026-11-28T15:00:00+00:00") == "measured 2026-11-28"  # naive: UTC
    # One run on a machine of two GPUs: the benchmark on one, the suite with both visible.
    env = {"date": "2026-11-28T14:59:00+00:00", "gpu": "NVIDIA H200", "gpu_count": 2}
    meta = {"date": "2026-11-28T15:01:00+00:00", "device_name": "NVIDIA H200"}
    assert results._when_and_where(meta, env) == (
        "measured 2026-11-28 on one of the 2 NVIDIA H200s of a machine, the tests and compute-sanitizer with "
        "both visible"
    )
    assert results._when_and_where(meta, {**env, "gpu_count": 1}) == "measured 2026-11-28 on one NVIDIA H200"
    later = results._when_and_where({**meta, "date": "2026-11-28T10:00:00+00:00"}, env)
    assert later.endswith("on a machine with 2 NVIDIA H200s) on one NVIDIA H200"), later
    later = results._when("2026-11-28T14:43:46+00:00", "2026-11-28T16:44:44+00:00")
    assert (
        later
        == "benchmarked 2026-11-28 14:43 UTC (tests and compute-sanitizer in a later run, started 2026-11-28 16:44 UTC)"
    )
    assert "an earlier run" in results._when("2026-11-28T18:01:00+00:00", "2026-11-28T15:00:00+00:00")
    assert "does not give" in results._when("", "2026-11-28T16:44:44+00:00")  # no date: not the suite's own


def test_a_benchmark_apart_from_its_suite_says_whether_it_measured_the_suite_s_sources():
    suite = {"date": "2026-11-28T16:44:44+00:00", "sources_sha256": "a" * 64}
    one_run, earlier = "2026-11-28T16:59:00+00:00", "2026-11-28T14:43:46+00:00"
    assert results._benchmarked_sources({"date": one_run}, suite) == ""
    assert results._benchmarked_sources({"date": one_run, "sources_sha256": "a" * 64}, suite) == ""
    assert "does not say" in results._benchmarked_sources({"date": earlier}, suite)
    assert "does not say" in results._benchmarked_sources({}, suite)
    same = results._benchmarked_sources({"date": earlier, "sources_sha256": "a" * 64}, suite)
    assert same == " The benchmark measured the same kernel sources."
    for date in (earlier, one_run):  # other sources are said, in one run or not
        other = results._benchmarked_sources({"date": date, "sources_sha256": "b" * 64}, suite)
        assert "other kernel sources" in other and "bbbbbbbbbbbb" in other


def test_a_sources_sentence_is_said_of_the_suite_where_the_benchmark_is_apart():
    assert results._of_the_suite("They measured the example's current kernel sources (x).") == (
        "The suite ran on the example's current kernel sources (x)."
    )
    assert results._of_the_suite("It measured other kernel sources.") == "The suite ran on other kernel sources."
    assert results._of_the_suite("Their run did not record it.") == "The suite's run did not record it."


def test_the_two_family_line_names_the_commit_only_where_commit_txt_names_one(tmp_path):
    commit = tmp_path / "commit.txt"
    assert results._rendered_from(commit) == ""  # no commit.txt
    commit.write_text("9ee1e0994bd0ac054ed0d03bfdafa61401f422f1\n")
    assert results._rendered_from(commit) == ", rendered from commit 9ee1e0994b"
    commit.write_text("9ee1e0994bd0ac054ed0d03bfdafa61401f422f1\nwith uncommitted changes\n")
    assert results._rendered_from(commit) == ", rendered from commit 9ee1e0994b with uncommitted changes"
    commit.write_text("unknown\n")
    assert results._rendered_from(commit) == ""


def test_the_two_family_line_names_the_operators_its_run_rendered(tmp_path):
    assert results._two_family_operators(tmp_path) == "its answers were not kept"
    (tmp_path / "copier-answers.added.yml").write_text("op_name: added\nfamily: row_norm\nnorm: layer_norm\n")
    (tmp_path / "copier-answers.yml").write_text(
        "project_name: Both\nop_name: first\nfamily: bias_activation\nactivation: relu\n"
    )
    assert results._two_family_operators(tmp_path) == (
        "project Both: `first`, bias_activation: relu; `added`, row_norm: layer_norm"
    )


def test_the_runs_folder_keeps_only_the_plots_of_the_landed_benchmarks():
    # The device tool sends the whole working tree (64 MiB at most), so runs/ keeps a call's benchmark
    # plot only while the results hold that call's benchmark (runs/README.md, "Plots"; landing.py's
    # prune_plots); git history keeps the rest.
    top = results.ROW_NORM_RESULTS_DIR
    landed = results.landed_benchmarks(top)
    assert len(landed) >= 4, "the tables' benchmark records"  # the example's and the other norms'
    kept = set()
    for plot in sorted((top / "runs").rglob("bench_*.png")):
        record = plot.with_suffix(".json")
        where = plot.relative_to(top / "runs")
        assert record.is_file() and record.read_bytes() in landed, f"{where}: not a landed benchmark's plot"
        assert plot.read_bytes() == landed[record.read_bytes()].read_bytes(), f"{where}: not the landed plot"
        kept.add(record.read_bytes())
    # Each landed benchmark that came from a call recorded in runs/ keeps its plot there.
    recorded = {path.read_bytes() for path in (top / "runs").rglob("bench_*.json")}
    assert kept == recorded & landed.keys(), "a landed call's plot is missing from runs/"


def _rerun_record(tmp_path, name, compiled, cells, digest="abc", host_bound=()):
    """A benchmark record of `cells` ({(dtype, shape, pass): (device us, % of copy)}), per-call time
    1 us above the device time; the cells named in host_bound are host-bound."""
    rows = [
        {
            "dtype": dtype,
            "shape": list(shape),
            "pass": pass_name,
            "ms": {"ours": (us + 1) / 1000},
            "device_ms": {"ours": us / 1000},
            "pct_of_copy": {"ours": pct},
            "host_bound": (dtype, shape, pass_name) in host_bound,
            "copy_ms": 1.0,
        }
        for (dtype, shape, pass_name), (us, pct) in cells.items()
    ]
    meta = {"sources_sha256": digest, "compile": compiled, "op": "p::op", "device_name": "GPU"}
    record = {"meta": meta, "results": rows}
    (tmp_path / name).write_text(json.dumps(record))
    return record


def _reruns(folder, *names):
    (folder / results.RERUNS_FILE).write_text(json.dumps({"why": "Why.", "benchmarks": list(names)}))


FAST = ("float32", (4096, 16384), "forward")
STEADY = ("float32", (8192, 8192), "forward")
HOST = ("float32", (16, 4096), "forward")
UNTIMED = ("float32", (1024, 65536), "forward")
COMPILED_ONLY = ("bfloat16", (4096, 16384), "forward")


def test_a_row_that_moves_without_torch_compile_is_marked_with_what_the_reruns_gave(tmp_path):
    table = _rerun_record(
        tmp_path,
        "table.json",
        True,
        {
            FAST: (288.5, 89.5),
            STEADY: (262.0, 98.0),
            HOST: (5.0, 400.0),
            UNTIMED: (285.0, 90.0),
            COMPILED_ONLY: (135.0, 98.0),
        },
        host_bound={HOST},
    )
    # STEADY's mean (275.0) is 5% above the table's, its median (265.0) within RERUN_APART; HOST moves 40%
    # but is host-bound; UNTIMED has no rerun; COMPILED_ONLY moves only in a run with torch.compile.
    _rerun_record(tmp_path, "a.json", False, {FAST: (322.0, 80.1), STEADY: (263.0, 97.0), HOST: (7.0, 300.0)})
    _rerun_record(tmp_path, "b.json", False, {FAST: (324.0, 79.6), STEADY: (265.0, 96.9), HOST: (7.0, 300.0)})
    _rerun_record(tmp_path, "c.json", False, {FAST: (323.0, 79.9), STEADY: (297.0, 90.0), HOST: (7.0, 300.0)})
    _rerun_record(tmp_path, "d.json", True, {FAST: (290.0, 89.0), COMPILED_ONLY: (150.0, 88.0)})
    _reruns(tmp_path, "a.json", "b.json", "c.json", "d.json")
    marked, notes = results._rerun_notes(tmp_path, table, tmp_path)
    assert marked == {("float32", "4096x16384", "forward")}
    assert notes == [
        "† float32 4096x16384 forward: run again on the same kernel sources without torch.compile "
        "(3 benchmarks), ours took 322.0 to 324.0 us of device time, 79.6 to 80.1% of the copy rate, "
        "323.0 to 325.0 us per call, where this table's run has 288.5 us of device time, 89.5% and 289.5 us "
        "per call (and its ratios to the others' device times are taken from it); with torch.compile, as "
        "this table's run: 290.0 to 290.0 us in 1. Why."
    ]


@pytest.mark.parametrize("field", ["sources_sha256", "op", "device_name"])
def test_a_rerun_of_another_operator_gpu_or_kernel_sources_is_refused(tmp_path, field):
    table = _rerun_record(tmp_path, "table.json", True, {FAST: (288.5, 89.5)})
    rerun = _rerun_record(tmp_path, "a.json", False, {FAST: (322.0, 80.1)})
    rerun["meta"][field] = "other"
    (tmp_path / "a.json").write_text(json.dumps(rerun))
    _reruns(tmp_path, "a.json")
    with pytest.raises(ValueError, match=f"not of the table's {field}"):
        results._rerun_notes(tmp_path, table, tmp_path)


def test_a_rerun_without_device_times_or_listed_twice_is_refused(tmp_path):
    table = _rerun_record(tmp_path, "table.json", True, {FAST: (288.5, 89.5)})
    rerun = _rerun_record(tmp_path, "a.json", False, {FAST: (322.0, 80.1)})
    _reruns(tmp_path, "a.json", "a.json")
    with pytest.raises(ValueError, match="listed twice"):
        results._rerun_notes(tmp_path, table, tmp_path)
    rerun["results"][0]["device_ms"] = None
    (tmp_path / "a.json").write_text(json.dumps(rerun))
    _reruns(tmp_path, "a.json")
    with pytest.raises(ValueError, match="no device time"):
        results._rerun_notes(tmp_path, table, tmp_path)


def test_the_table_marks_the_rows_its_reruns_moved(tmp_path):
    """A norm's landed records, with reruns without torch.compile that put one row 12% slower: its
    table marks that row alone, with one note."""
    landed = results.ROW_NORM_RESULTS_DIR / "norms" / "fused_add_layer_norm"
    folder = tmp_path / landed.name
    folder.mkdir()
    for name in ("gpu_suite.json", "bench_fused_add_layer_norm.json"):
        shutil.copy(landed / name, folder / name)
    rerun = json.loads((landed / "bench_fused_add_layer_norm.json").read_text())
    rerun["meta"]["compile"] = False
    for row in rerun["results"]:
        if (row["dtype"], tuple(row["shape"]), row["pass"]) == FAST:
            row["device_ms"]["ours"] *= 1.12
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(rerun))
    _reruns(folder, "a.json", "b.json")
    lines = results._row_norm_table(folder, tmp_path)
    marked = [line for line in lines if line.startswith("| ") and " † |" in line]
    assert [line.split(" | ")[:3] for line in marked] == [["| float32", "4096x16384", "forward †"]]
    assert sum(line.startswith("† float32 4096x16384 forward:") for line in lines) == 1
