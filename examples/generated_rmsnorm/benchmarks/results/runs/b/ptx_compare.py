"""ptxcmp2.py OLD.ptx NEW.ptx: kernels compared by demangled name; the new kernels' last template argument
(kClustered of backward_kernel) dropped where false; a kernel's own name replaced in its body."""

import re
import subprocess
import sys


def funcs(p):
    s = open(p).read()
    res = {}
    ms = list(re.finditer(r"\.visible \.entry (\S+)\((.*?)\n\}\n", s, re.S))
    dem = subprocess.run(
        ["c++filt"], input="\n".join(m.group(1) for m in ms), capture_output=True, text=True
    ).stdout.split("\n")
    for m, d in zip(ms, dem, strict=False):
        body = m.group(0).replace(m.group(1), "F")
        body = re.sub(r"\$L__BB\d+_", "$L__BB_", re.sub(r"__local_depot\d+", "__local_depot", body))
        res[d.split(">(")[0]] = body
    return res


a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
same = diff = new = 0
for k, v in b.items():
    if "backward_kernel" in k and k.endswith(", true"):
        new += 1
        continue
    base = k[:-7] if ("backward_kernel" in k and k.endswith(", false")) else k
    if base not in a:
        print("ONLY NEW", k[:140])
        continue
    if a[base] == v:
        same += 1
    else:
        diff += 1
        print("DIFF", re.sub(r"^void \S+::row_norm::cuda::", "", k)[:150])
print(f"old {len(a)} new {len(b)} identical {same} differ {diff} clustered (new) {new}")
