#!/usr/bin/env python3
"""A torchrun worker for scripts/dev/torchrun-check.sh: each rank runs a few CUDA kernels of its
own size (1 + rank million floats), checks them, and the ranks add their sums over gloo (CPU),
so no NCCL and one GPU serve any number of ranks."""
import os
import sys

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank, size = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(rank % torch.cuda.device_count())
    n = (1 + rank) << 20
    x = torch.rand(n, device="cuda")
    for _ in range(5):
        y = torch.sin(x) * 2.0 + 1.0
    local = y.double().sum().item()
    want = (torch.sin(x.double()) * 2.0 + 1.0).sum().item()
    ok = abs(local - want) <= 1e-6 * abs(want)
    total = torch.tensor([local], dtype=torch.float64)
    dist.all_reduce(total)
    print(f"rank {rank} of {size} on GPU {torch.cuda.current_device()}: {n} floats, sum {local:.3f} "
          f"({'ok' if ok else 'WRONG'}), all ranks {total.item():.3f}", flush=True)
    dist.destroy_process_group()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
