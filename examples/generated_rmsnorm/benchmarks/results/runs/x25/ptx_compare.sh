#!/bin/bash
# ptxcmp.sh OLDPROJ NEWPROJ OP: PTX of OP_cuda.cu for sm_90a in both, compared function by function
TI=$(python3 -c "import torch.utils.cpp_extension as c;print(' '.join('-I'+p for p in c.include_paths()))")
for w in $1 $2; do
  nvcc -std=c++17 -O3 -arch=sm_90a -ptx -I/tmp/stubs $TI -I$w/csrc -DTORCH_EXTENSION_NAME=x -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr $w/csrc/${3}_cuda.cu -o $w/$3.ptx 2>/dev/null &
done; wait
python3 - $1/$3.ptx $2/$3.ptx <<'PY'
import re,sys
def funcs(p):
    s=open(p).read(); res={}
    for m in re.finditer(r"\.visible \.entry (\S+)\((.*?)\n\}\n", s, re.S):
        res[m.group(1)]=re.sub(r"\$L__BB\d+_", "$L__BB_", re.sub(r"__local_depot\d+", "__local_depot", m.group(0)))
    return res
a,b=funcs(sys.argv[1]),funcs(sys.argv[2])
same=[k for k in a if k in b and a[k]==b[k]]; diff=[k for k in a if k in b and a[k]!=b[k]]
print(f"old {len(a)} new {len(b)} identical {len(same)} differ {len(diff)} only-new {len([k for k in b if k not in a])} only-old {len([k for k in a if k not in b])}")
for k in diff: print("DIFF",k[:150])
PY
