#!/usr/bin/env bash
# Lab AV2 (issue 11), session 45 (2026-11-30), in the device time left after landing call AV (one
# H200; about 200 s), carrying .gpu (`scaffold gpu-bundle .gpu` of 39db058, main after call AV with
# this script):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/av/lab_av2.sh
# Call AV's tables had RMSNorm's 16-bit forward+backward at 8192 x 4095 (rows that start off a vector
# boundary, `kShifted`) at 1.07 to 1.09 times call AP's, where the fewer blocks a multiprocessor
# (kStagedRowElementsPerSM) now apply too; labs AT7 and AU1 timed only N a multiple of 8. Builds of
# RMSNorm: main's (`base`) and `noshift` (variant_av.py: the fewer blocks kept off shifted rows);
# bfloat16 device time (../e/e_time.py, B_PEAK=1: the bytes requested at the peak) base, noshift,
# base at 8192 x 4095, 16384 x 4095, 8192 x 8191, 16384 x 5119 and, as a control where noshift
# changes nothing, 32768 x 4096. Results in $OUT/res_av2.tgz: unpack with
# `mkdir -p av2 && tar xzf res_av2.tgz -C av2 --strip-components=1` in runs/av/, add console.txt, then
# `python3 ../au/summary_au.py ../av/av2 noshift > summary_av2.txt`.
. "$(dirname "$0")/../call_lib.sh" av2
lab_start  # limit, gpus, L (call_lib.sh)
limit=200
declare -A LAB_EDITS=([base]="" [noshift]="av:noshift")
lab_builds "rmsnorm" "base noshift"
LAB_ENV[base]="B_PEAK=1"; LAB_ENV[noshift]="B_PEAK=1"
lab_time_runs 0 bfloat16 bfloat16 8192x4095,16384x4095,8192x8191,16384x5119,32768x4096 rmsnorm "base noshift base"
echo "done at $(elapsed) s"; pack
