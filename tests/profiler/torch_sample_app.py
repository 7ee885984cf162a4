#!/usr/bin/env python3
"""A PyTorch program for the collector's GPU test of sample plans (collector_torch_gpu_test.cpp):
one fill kernel, then the same elementwise kernel with the same launch shape LAUNCHES times
(default 40). Prints one check line; exit status 1 when the result is wrong."""
import sys

import torch


def main():
    launches = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    x = torch.ones(1 << 20, device="cuda")
    for _ in range(launches):
        x.mul_(1.0001)
    torch.cuda.synchronize()
    got, want = x[0].item(), 1.0001 ** launches
    ok = abs(got - want) <= 1e-5 * want
    print(f"torch_sample_app: {launches} launches of x *= 1.0001, x[0] = {got:.6f} (expected {want:.6f}) "
          f"{'ok' if ok else 'FAILED'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
