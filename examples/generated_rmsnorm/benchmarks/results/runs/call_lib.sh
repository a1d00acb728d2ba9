# What the GPU call scripts of issue 11 share, from lab J1 on (the earlier ones, records of what ran,
# each carry a copy). A script sources it with the call's name and, optionally, the folder of .gpu/
# whose commit.txt says what the call carried:
#   . "$(dirname "$0")/../call_lib.sh" NAME [FOLDER]
# It sets G (the script's folder), root (the repository on the GPU machine), X ($root/.gpu, the
# renderings carried with the call), R (/tmp/res_NAME, emptied) and start; elapsed prints the seconds
# since start; pack tars R into $OUT/res_NAME.tgz through a temporary name, so that a call cut off by
# its limit still returns what it had packed, and a failed tar leaves the last archive. A file that
# changes while tar reads it (a log that a job beside it still writes: GNU tar then exits 1) does not
# fail the pack; that file's copy is then cut short in that archive. It records X/FOLDER/commit.txt,
# nvidia-smi and torch's versions in R. (Labs J1 to J4 ran the version of commit b142633, which took
# no FOLDER and copied only X/commit.txt, and whose pack replaced the archive whatever tar did; calls
# L1 to L5 ran the version of commit 7b17410, whose pack dropped an archive that tar exited 1 on.)
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
call_name=$1
G=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu
R=/tmp/res_$call_name
rm -rf "$R" && mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() {
  local t
  t=$(mktemp -p "$OUT" ".res_$call_name.XXXXXX") || return 1
  tar czf "$t" --warning=no-file-changed -C /tmp "res_$call_name" 2>/dev/null
  if [ $? -le 1 ]; then mv -f "$t" "$OUT/res_$call_name.tgz"; else rm -f "$t"; fi
}
# What the calls that build and benchmark the norms' projects share (from call L on; call P2 had its
# own copy): OP, the operator of each project of `scaffold gpu-bundle`; install_liger, Liger-Kernel
# from the carried .whl/ into /tmp/site, on PYTHONPATH; build PROJECT [JOBS], in place, its log in
# R/build_PROJECT.log, failing where the build did; bench PROJECT, its benchmark as gpu_suite.py runs
# it (JSON, console output and plot in R/PROJECT).
declare -A OP=([rmsnorm]=rms_norm [layer_norm]=layer_norm [fused_add_rms_norm]=fused_add_rms_norm
               [fused_add_layer_norm]=fused_add_layer_norm)
install_liger() {
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
    "$root"/.whl/*.whl > "$R/pip.log" 2>&1
  echo "liger install exit $?"
  export PYTHONPATH=/tmp/site
}
build() {  # build PROJECT [JOBS [SECONDS]]: at most SECONDS (300 unless given)
  (cd "$X/$1" && MAX_JOBS=${2:-8} FORCE_CUDA=1 timeout "${3:-300}" python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1)
  local rc=$?
  echo "build $1 exit $rc at $(elapsed) s"
  return $rc
}
bench() {
  local p=$1 op=${OP[$1]}; mkdir -p "$R/$p"
  (cd "$X/$p" && timeout 240 python3 "benchmarks/bench_$op.py" --json "$R/$p/bench_$op.json" > "$R/$p/benchmark.log" 2>&1
   echo "bench $p exit $? at $(elapsed) s"
   python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import gpu_suite; from pathlib import Path
gpu_suite.plot('$op', Path('$R/$p/bench_$op.json'), Path('$R/$p/bench_$op.png'))" > /dev/null 2>&1)
}
# suite PROJECT [OPTION...]: its suite (gpu_suite.py --skip-benchmark --skip-jit: build, tests,
# compute-sanitizer; the options, such as --skip-build, passed on) within what is left of the script's
# `limit` seconds, its record in R/PROJECT with its answers files (from call AA on; call L5 had its own
# copy, the same commands; the options from call AC on; from call AI on, one with no time left is not
# started).
suite() {
  local p=$1
  [ $(( limit - $(elapsed) )) -gt 0 ] || { echo "suite $p not run: no time left at $(elapsed) s"; return 1; }
  (cd "$X/$p" && MAX_JOBS=8 timeout "$(( limit - $(elapsed) ))" python3 benchmarks/gpu_suite.py \
     --skip-benchmark --skip-jit --out "$R/$p" "${@:2}" > "$R/${p}_suite.log" 2>&1
   echo "suite $p exit $? at $(elapsed) s: $(tail -n 1 "$R/$p/tests.log" 2>/dev/null)")
  for answers in "$X/$p"/.copier-answers*.yml; do cp "$answers" "$R/$p/${answers##*/.}"; done
}
# two_gpu_suite PROJECT DEVICES [OPTION...] (from call AP on; calls AI and AK wrote it out): suite with
# CUDA_VISIBLE_DEVICES=DEVICES (both GPUs visible: the suite is also the norm's two-GPU run), then pack.
two_gpu_suite() {
  local p=$1 devices=$2; shift 2
  CUDA_VISIBLE_DEVICES=$devices suite "$p" "$@"; pack
}
# first_tests PROJECT GPU K (from call AP on; calls AI and AK wrote it out): the project's tests that
# pytest's -k K selects on GPU, before its benchmark, their log in R/first_PROJECT.log; fails where they
# did.
first_tests() {
  (cd "$X/$1" && CUDA_VISIBLE_DEVICES=$2 timeout 150 python3 -m pytest tests -q -p no:cacheprovider \
     -k "$3" > "$R/first_$1.log" 2>&1)
  local rc=$?; echo "first tests $1 exit $rc at $(elapsed) s: $(tail -n 1 "$R/first_$1.log")"
  return $rc
}
# lab_start (from lab AL on; labs J to AJ wrote these lines out): a lab's start, limit LIMIT seconds
# (580 unless given), the call's .gpu/commit.txt required, gpus (the GPUs torch sees, echoed; at least
# one required) and L, /tmp/NAME_lab, emptied, for the lab's builds. (The LIMIT default and the GPU
# check from session 62 on; labs BP to CG wrote those two lines out after calling it.)
lab_start() {
  limit=${LIMIT:-580}
  [ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu (or the lab's projects and .gpu/commit.txt)"; exit 3; }
  gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())')
  echo "GPUs: $gpus"
  [ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab ${call_name^^} wants a GPU"; exit 3; }
  L=/tmp/${call_name}_lab; rm -rf "$L"; mkdir -p "$L"
}
# lab_left: the seconds left of the lab's `limit`.
lab_left() { echo $(( limit - $(elapsed) )); }
# lab_step NAME BUILD COMMAND... (from lab BY on; labs BY and BZ wrote it out as step): COMMAND in
# L/P_BUILD (P, the lab's project) on GPU 0, within what is left of the limit less 5 s; none started
# with 40 s or less left; packed after.
lab_step() {
  local name=$1 b=$2; shift 2
  [ "$(lab_left)" -gt 40 ] || { echo "$name not run: $(elapsed) s"; return; }
  (cd "$L/${P}_$b" && CUDA_VISIBLE_DEVICES=0 timeout "$(( $(lab_left) - 5 ))" "$@")
  echo "$name exit $? at $(elapsed) s"
  pack
}
# lab_bench PROJECT BUILD (from lab CC on; labs CA and BZ wrote it out as bench_ca and their own):
# PROJECT's benchmark without torch.compile, every dtype, of build L/PROJECT_BUILD by lab_step, in
# R/bench_PROJECT_BUILD.json and .log (_again added where that build ran before). The caller declares
# the associative array OPS (project -> operator).
lab_bench() {
  local p=$1 b=$2 tag=$1_$2
  [ -f "$R/bench_$tag.log" ] && tag=${tag}_again
  P=$p lab_step "bench $tag" "$b" sh -c 'python3 "benchmarks/bench_$0.py" --no-compile --json "$1.json" > "$1.log" 2>&1' \
    "${OPS[$p]}" "$R/bench_$tag"
}
# lab_builds "PROJECT..." "VARIANT..." (from lab AQ on; labs AM, AN and AO wrote it out): for each
# project of .gpu and each variant, a copy in L/PROJECT_VARIANT with the edits of LAB_EDITS[VARIANT]
# applied in turn (each "LAB:EDIT": runs/LAB/variant_LAB.py PROJECT EDIT; the caller declares the
# associative array LAB_EDITS), all built at once (nproc / 8 jobs each), their logs in
# R/build_BUILD.log; packed. Exits where an edit does not apply.
lab_builds() {
  local p v e builds="" jobs
  for p in $1; do
    for v in $2; do
      cp -r "$X/$p" "$L/${p}_$v"; builds="$builds ${p}_$v"
      for e in ${LAB_EDITS[$v]}; do
        python3 "$G/../${e%%:*}/variant_${e%%:*}.py" "$L/${p}_$v" "${e##*:}" >> "$R/patch.log" 2>&1 \
          || { echo "patch $p $v $e failed"; exit 1; }
      done
    done
  done
  jobs=$(( $(nproc) / 8 )); [ "$jobs" -lt 2 ] && jobs=2
  for e in $builds; do
    (cd "$L/$e" && MAX_JOBS=$jobs FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$e.log" 2>&1
     echo "build $e exit $? at $(elapsed) s") &
  done
  wait; pack
}
# lab_time_runs GPU TAG DTYPES SHAPES "PROJECT..." "RUN..." [SKIP] (from lab AQ on; labs AM, AN and AO
# wrote it out): for each project in turn, the device time of forward and forward+backward
# (runs/e/e_time.py: CUDA graphs, each case checked against float64 first) of each build L/PROJECT_RUN
# in the order given (a run named again is labelled RUN_again), on GPU, in R/time_PROJECT_LABEL_TAG.*;
# packed after each. None starts with under 50 s of the lab's limit left, none runs past it; projects
# named in SKIP (" PROJECT " within it) are left out. From lab AT3 on, a run named in LAB_BUILD times
# the build L/PROJECT_LAB_BUILD[RUN] instead, with the environment assignments of LAB_ENV[RUN] (both
# associative arrays, empty unless the lab fills them).
declare -A LAB_BUILD=() LAB_ENV=()
lab_time_runs() {
  local gpu=$1 tag=$2 dtypes=$3 shapes=$4 p run label
  for p in $5; do
    case "${7:-}" in *" $p "*) echo "time $p not run: left out"; continue ;; esac
    for run in $6; do
      label=$run; [ -f "$R/time_${p}_${label}_$tag.log" ] && label=${label}_again
      [ "$(lab_left)" -gt 50 ] || { echo "time $p $label ($dtypes) not run: $(elapsed) s"; continue; }
      # (env with LAB_ENV's words unquoted: assignments without spaces)
      # shellcheck disable=SC2086
      (cd "$L/${p}_${LAB_BUILD[$run]:-$run}" && CUDA_VISIBLE_DEVICES=$gpu B_SHAPES=$shapes B_DTYPES=$dtypes \
         env ${LAB_ENV[$run]:-} timeout "$(lab_left)" python3 "$G/../e/e_time.py" "${OP[$p]}" "$label" "$R/time_${p}_${label}_$tag.json" \
         > "$R/time_${p}_${label}_$tag.log" 2>&1
       echo "time $p $label ($dtypes) exit $? at $(elapsed) s")
      pack
    done
  done
}
# lab_tests BUILD GPU K RESERVE (from lab AS on; lab AR wrote it out): the tests of build L/BUILD that
# pytest's -k K selects, on GPU, for at most 60 s and never into the last RESERVE seconds of the lab's
# limit (none started with 10 s or less), their log in R/tests_BUILD.log.
lab_tests() {
  local l=$(( $(lab_left) - $4 )); [ "$l" -gt 60 ] && l=60
  [ "$l" -gt 10 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$2 timeout "$l" python3 -m pytest tests -q -p no:cacheprovider -k "$3" > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
}
# lab_sanitize BUILD OP TOOL GPU (from lab AT3 on; labs AT and AT2 wrote it out): compute-sanitizer's
# TOOL on build L/BUILD's sanitizer workload (benchmarks/sanitize_OP.py, as gpu_suite.py runs it) on
# GPU, within the lab's limit less 5 s (none started with 35 s or less left), its log in
# R/sanitizer_TOOL_BUILD.log; packed. From lab BC on, a fifth argument caps its seconds.
lab_sanitize() {
  local l=$(( $(lab_left) - 5 )); [ -n "${5:-}" ] && [ "$l" -gt "$5" ] && l=$5
  [ "$l" -gt 30 ] || { echo "$3 $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$4 PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTHONPATH=src timeout "$l" \
     compute-sanitizer --tool "$3" --error-exitcode 1 python3 "benchmarks/sanitize_$2.py" > "$R/sanitizer_$3_$1.log" 2>&1
   echo "$3 $1 exit $? at $(elapsed) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/sanitizer_$3_$1.log" | tail -n 1)")
  pack
}
# ddp_time PROJECT DIR RESERVE (from session 46; lab AX and `DDP=1 call_ap.sh 1`): ax/ddp_ax.py (DDP's
# training step with and without the backward's workspace) in the built project DIR on both GPUs,
# its JSON and log in R/ddp_PROJECT.*, for at most 90 s and never into the last RESERVE seconds of
# the script's `limit` (not started with under 45 s); packed.
ddp_time() {
  local l=$(( limit - $(elapsed) - $3 )); [ "$l" -gt 90 ] && l=90
  [ "$l" -ge 45 ] || { echo "ddp $1 not run: $(elapsed) s"; return; }
  (cd "$2" && timeout "$l" python3 "$G/../ax/ddp_ax.py" "${OP[$1]}" "$R/ddp_$1.json" > "$R/ddp_$1.log" 2>&1
   echo "ddp $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/ddp_$1.log")")
  pack
}
[ -f "$X/${2:-.}/commit.txt" ] && cp "$X/${2:-.}/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())' > "$R/torch.txt" 2>&1
