#!/usr/bin/env bash
# Lab Z1 (issue 11): the staged forward's geometry (cluster nearest 32 KiB slices, a thread for every 128
# bytes) against 442912e's and the registers, and the backward's cluster blocks (256 threads, two stages),
# in the RMSNorm example, the LayerNorm and the residual-add RMSNorm projects rendered at the commit in
# commit.txt, with knobs added by patch_z.py after rendering. Builds the three, then times them at each
# knob setting (z_time.py), each setting's outputs checked against float64 first.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms ln addrms; do
  (cd "$T/$p" && MAX_JOBS=5 FORCE_CUDA=1 timeout 260 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/z1.tgz" -C "$T" res; }
FWD="none LAB_FWD_OLD=1 LAB_OLD=1 LAB_MAXSLICE=46341"
BWD="LAB_BWD_THREADS=256 LAB_BWD_STAGES=2"
run() {  # run DIR OP SETTINGS...
  d=$1; op=$2; shift 2
  (cd "$T/$d" && timeout ${TL:-160} python3 "$T/z_time.py" "$op" "$d" "$R/time_$d.json" "$@" > "$R/time_$d.log" 2>&1
   echo "time $d exit $? at $(el) s")
}
run rms rms_norm $FWD $BWD; pack
run ln layer_norm $FWD $BWD; pack
TL=80 run addrms fused_add_rms_norm none LAB_FWD_OLD=1 LAB_OLD=1 LAB_BWD_THREADS=256; pack
echo "done at $(el) s"
