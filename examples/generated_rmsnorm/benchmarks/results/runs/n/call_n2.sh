#!/usr/bin/env bash
# GPU call N2: the RMSNorm example's suite (its build, tests and compute-sanitizer) again, alone on two
# H200s with both visible: in call N its memcheck run printed 0 errors and then aborted as the process
# ended ("terminate called without an active exception", exit 6), beside the LayerNorm suite on the
# same GPU, as two of calls G3-2's had. Then the same workload three times more under memcheck, to see
# whether the abort comes back alone. Results tarred into $OUT/res_n2.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu; R=/tmp/res_n2; rm -rf "$R"; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { tar czf "$OUT/res_n2.tgz" -C /tmp res_n2; }
cp "$X/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
(cd "$X/rmsnorm" && MAX_JOBS=16 timeout 330 python3 benchmarks/gpu_suite.py --skip-benchmark --skip-jit --out "$R/rmsnorm" \
   > "$R/rmsnorm_suite.log" 2>&1; echo "suite rmsnorm exit $? at $(elapsed) s: $(tail -n 1 "$R/rmsnorm/tests.log")")
cp "$X/rmsnorm/.copier-answers.yml" "$R/rmsnorm/copier-answers.yml"; pack
for i in 1 2 3; do
  [ $(elapsed) -lt 350 ] || break
  (cd "$X/rmsnorm" && PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTHONPATH=src timeout 60 compute-sanitizer --tool memcheck \
     --error-exitcode 1 python3 benchmarks/sanitize_rms_norm.py > "$R/memcheck_$i.log" 2>&1
   echo "memcheck $i exit $?" | tee -a "$R/exits.txt")
done
echo "done at $(elapsed) s"; pack
