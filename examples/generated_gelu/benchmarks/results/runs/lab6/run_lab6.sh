#!/usr/bin/env bash
# GPU lab call 6 (results in $OUT): the bias vector load and the bfloat16 conversion, forward and
# backward against the committed kernels and torch.compile; ncu counters of the relu forwards.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
nvidia-smi > "$OUT/nvidia_smi_lab_6.txt"
timeout 420 python3 lab6.py 2>&1 | tee "$OUT/lab6.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,smsp__inst_executed.sum
timeout 100 ncu --clock-control none --metrics $M --kernel-name regex:"forward|triton" --csv python3 lab6.py ncu > "$OUT/lab6_ncu.csv" 2> "$OUT/lab6_ncu.err"
echo "ncu exit $?"
python3 - "$OUT/lab6_ncu.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if rows:
    h = rows[0]; ki = h.index("Kernel Name"); mi = h.index("Metric Name"); vi = h.index("Metric Value"); ii = h.index("ID")
    cur = None
    for r in rows[1:]:
        if r[ii] != cur:
            cur = r[ii]; print("\n#", r[ii], r[ki][:100])
        print("   ", r[mi], r[vi])
PY
