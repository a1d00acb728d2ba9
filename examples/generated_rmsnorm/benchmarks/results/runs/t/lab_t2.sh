#!/usr/bin/env bash
# Lab T2 (issue 11): the backward's weight of the thread's columns, read once into registers (mode 1;
# staged kernels whose weight takes at most 64 bytes a thread) or before each row's wait (mode 2),
# against reading it from global memory in both passes of every row (mode 0: the template at
# commit.txt). Lab T1's Nsight Compute had the float32 backward at 32768x4096 with 26% L1 hits (the
# staging takes nearly all of the L1's memory) and 8.3 of its 15.6 cycles a warp instruction waiting
# on L1TEX. Builds the RMSNorm example in modes 0-2 and the LayerNorm project in modes 0-1 (with lab
# T1's LAB_FEW knob; all with the parameters' two sums in one launch), then t2_time.py on each (torch.compile and Liger-Kernel on the RMSNorm mode-0 build).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")/.." && pwd); T=$X/t2; R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
cp "$X/commit.txt" "$R/"
python3 -m pip install -q --no-index --no-deps --target /tmp/site "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1
export PYTHONPATH=/tmp/site
for p in rms_m0 rms_m1 rms_m2 ln_m0 ln_m1; do
  (cd "$T/$p" && MAX_JOBS=3 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(( $(date +%s) - start )) s") &
done
wait
pack() { tar czf "$OUT/t2.tgz" -C "$T" res; }
run() {  # run PROJECT OP FLAGS
  (cd "$T/$1" && timeout 280 python3 "$T/t2_time.py" "$2" "$1" "$R/time_$1.json" $3 > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(( $(date +%s) - start )) s")
}
run rms_m1 rms_norm "--few"
run rms_m0 rms_norm "--few --peers"
pack
run ln_m1 layer_norm "--few"
run ln_m0 layer_norm "--few"
pack
run rms_m2 rms_norm ""
pack
echo "done at $(( $(date +%s) - start )) s"
