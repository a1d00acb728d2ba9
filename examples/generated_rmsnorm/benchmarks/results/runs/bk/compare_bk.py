"""Lab BK (issue 11): two builds' outputs and gradients (grads_bk.py) compared tensor by tensor: the
first line says whether all are bitwise equal; then each tensor's largest absolute difference and
the largest relative to the tensor's largest magnitude.
    python3 compare_bk.py BASE.pt VARIANT.pt"""

import sys

import torch

base, variant = (torch.load(path) for path in sys.argv[1:3])
assert base.keys() == variant.keys(), "the two files hold other tensors"
equal = [torch.equal(base[k], variant[k]) for k in base]
print(f"bitwise equal: {sum(equal)} of {len(equal)}")
for key, same in zip(base, equal, strict=True):
    if same:  # (no float64 copies of equal tensors: they take half a minute at 1024 x 65536)
        print(f"  {key}: equal")
        continue
    a, b = base[key].double(), variant[key].double()
    diff = (a - b).abs().max().item()
    print(f"  {key}: max |diff| {diff:.3g}, relative {diff / a.abs().max().item():.3g}")
