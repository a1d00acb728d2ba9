#!/usr/bin/env bash
# GPU call B, on two H200s: every other activation's tests and benchmark (one GPU each, two
# projects at a time), then the example's tests with both GPUs visible (the second-device test), and
# the three-operator project's tests again after a fix to its owner-written kernel.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_x2.txt" 2>&1
for p in gelu relu silu sigmoid example three_ops; do
  (cd "$B/$p" && FORCE_CUDA=1 TORCH_CUDA_ARCH_LIST=9.0a timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $?" >> "$R/exit_codes_b.txt") &
done
wait
lane() {  # one GPU, projects in turn: tests and benchmark
  local gpu=$1; shift
  for a in "$@"; do
    (cd "$B/$a" && CUDA_VISIBLE_DEVICES=$gpu timeout 230 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit \
        --out "$R/activations/$a") > "$R/suite_$a.log" 2>&1
    echo "suite $a exit $?" >> "$R/exit_codes_b.txt"
  done
}
lane 0 gelu relu & lane 1 silu sigmoid & wait
(cd "$B/example" && timeout 150 python3 -m pytest -q -p no:cacheprovider tests > "$R/two_gpus_tests.log" 2>&1; echo "example two-GPU tests exit $?" >> "$R/exit_codes_b.txt") &
(cd "$B/three_ops" && CUDA_VISIBLE_DEVICES=1 timeout 150 python3 -m pytest -q -p no:cacheprovider tests > "$R/three_ops_tests_after_fix.log" 2>&1; echo "three_ops tests exit $?" >> "$R/exit_codes_b.txt") &
wait
python3 - "$B" > "$R/two_gpus_env.json" <<'PY'
import json, sys, torch, datetime
print(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
  "gpus": [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())],
  "torch": torch.__version__, "torch_cuda": torch.version.cuda}, indent=2))
PY
tar czf "$OUT/results_b.tgz" -C "$B" res/activations res/two_gpus_tests.log res/two_gpus_env.json res/three_ops_tests_after_fix.log res/exit_codes_b.txt res/nvidia_smi_x2.txt $(cd "$B" && ls res/build_*.log res/suite_*.log)
cat "$R/exit_codes_b.txt"; tail -2 "$R/two_gpus_tests.log" "$R/three_ops_tests_after_fix.log"
