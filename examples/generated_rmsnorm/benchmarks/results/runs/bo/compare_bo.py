"""Lab BO (issue 11): two builds' digests of outputs and gradients (grads_bo.py) compared tensor by
tensor: the first line says how many are bitwise equal (the same SHA-256); then each that is not, with
its largest magnitude and its sum in both.
    python3 compare_bo.py BASE.json VARIANT.json"""

import json
import sys

base, variant = (json.load(open(path)) for path in sys.argv[1:3])
assert base.keys() == variant.keys(), "the two files hold other tensors"
equal = [base[k]["sha256"] == variant[k]["sha256"] for k in base]
print(f"bitwise equal: {sum(equal)} of {len(equal)}")
for key, same in zip(base, equal, strict=True):
    if not same:
        a, b = base[key], variant[key]
        largest = f"{a['absmax']:.6g} / {b['absmax']:.6g}"
        print(f"  {key}: differs; largest |value| {largest}, sum {a['sum']:.9g} / {b['sum']:.9g}")
