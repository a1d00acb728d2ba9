"""Whether DistributedDataParallel is freed when its last name goes (`del`), or only by the garbage
collector: a reference cycle keeps it, its reducer and the reducer's process group alive until a
collection. One process, gloo, a linear layer, one backward, the collector off until asked.

    GLOO_SOCKET_IFNAME=lo python ddp_cycle.py
"""

import gc
import tempfile
import weakref

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

store = tempfile.mktemp()
dist.init_process_group("gloo", init_method=f"file://{store}", rank=0, world_size=1)
gc.disable()
ddp = DistributedDataParallel(nn.Linear(4, 4).double())
ddp(torch.randn(2, 4, dtype=torch.float64)).sum().backward()
alive = weakref.ref(ddp)
del ddp
print("torch", torch.__version__)
print("freed by del:", alive() is None)
gc.collect()
print("freed by gc.collect():", alive() is None)
dist.destroy_process_group()
