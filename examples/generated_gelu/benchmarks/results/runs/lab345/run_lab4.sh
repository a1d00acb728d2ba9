#!/usr/bin/env bash
# GPU lab call 4 (results in $OUT): graph-timed forwards against torch.compile, ncu counters of the
# relu forwards, and Inductor's generated kernel.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
timeout 330 python3 lab4.py 2>&1 | tee "$OUT/lab4.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
timeout 150 ncu --clock-control none --metrics $M --kernel-name regex:"forward|triton" --csv python3 lab4.py ncu > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu exit $?"; tail -3 "$OUT/ncu.err"
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if rows:
    h = rows[0]; ki = h.index("Kernel Name"); mi = h.index("Metric Name"); vi = h.index("Metric Value"); ii = h.index("ID")
    cur = None
    for r in rows[1:]:
        if r[ii] != cur:
            cur = r[ii]; print("\n#", r[ii], r[ki][:90])
        print("   ", r[mi], r[vi])
PY
TORCH_LOGS=output_code timeout 100 python3 -c "
import torch
for n in (1000, 1023):
    x = torch.randn(32768, n, device='cuda', dtype=torch.bfloat16); b = torch.randn(n, device='cuda', dtype=torch.bfloat16)
    torch.compile(lambda x, b: torch.relu(x + b), fullgraph=True)(x, b); torch._dynamo.reset()
" > "$OUT/inductor_code.txt" 2>&1
grep -n "def triton\|XBLOCK\|tl.load\|tl.store\|num_warps\|triton_meta" "$OUT/inductor_code.txt" | head -40
