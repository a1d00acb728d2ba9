#!/usr/bin/env bash
# GPU call M (issue 11), two H200s of one host: the projects of `scaffold gpu-bundle .gpu` (the template
# at .gpu/commit.txt) built at once, then each project's test suite with both GPUs visible (the tests on
# a second device and the DistributedDataParallel training on two GPUs, NCCL, among them), three suites
# at a time, by benchmarks/gpu_suite.py without compute-sanitizer, benchmark or just-in-time build.
# Usage: call_m.sh [PROJECT...] (all six unless named). Results tarred into $OUT/res_m.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu; R=/tmp/res_m; rm -rf "$R"; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { local t; t=$(mktemp -p "$OUT" .res_m.XXXXXX) && tar czf "$t" -C /tmp res_m 2>/dev/null; mv -f "$t" "$OUT/res_m.tgz"; }
# The longest suites first, so that the queue of three ends together.
projects=${*:-two_families fused_add_rms_norm example fused_add_layer_norm rmsnorm layer_norm}
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1; nvidia-smi topo -m > "$R/nvidia_smi_topo.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())' > "$R/torch.txt" 2>&1
cat "$R/torch.txt"
for p in $projects; do
  (cd "$X/$p" && MAX_JOBS=6 FORCE_CUDA=1 timeout 330 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1
   echo "build $p exit $? at $(elapsed) s") &
done
wait; pack
suite() {  # suite PROJECT
  local p=$1
  (cd "$X/$p" && timeout 300 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-benchmark \
     --skip-jit --out "$R/$p" > "$R/${p}_suite.log" 2>&1
   echo "suite $p exit $? at $(elapsed) s: $(tail -n 1 "$R/$p/tests.log" 2>/dev/null)")
  for answers in "$X/$p"/.copier-answers*.yml; do cp "$answers" "$R/$p/${answers##*/.}"; done
  pack
}
export -f suite elapsed pack; export X R start
printf '%s\n' $projects | xargs -P 3 -I{} bash -c 'suite {}'
echo "done at $(elapsed) s"; pack
