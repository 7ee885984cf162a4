#!/usr/bin/env python3
"""PyTorch library kernels for roofcast's validation corpus: FP32 and BF16 matrix products,
elementwise ops, softmax, layer norm and reductions, on fresh random data.

Each op runs a few untimed warm-ups, then timed repeats (CUDA events; the median is printed),
and its result is checked against a float64 reference. Output lines, like the CUDA workloads':
  op <name> median_ms <t> min_ms <t> max_ms <t> launches <n>
  check <name> ok|FAILED <detail>
Exit status 1 when a check fails. Usage: pytorch_ops.py [--small] [--warmups N] [--repeats N] [--op NAME]
--op runs that op alone, making only its own inputs (one op per process: what roofcast profile and
ncu are compared on in scripts/dev/collector-parity.sh).
"""
import argparse
import functools
import statistics
import sys

import torch


def relative_error(got, want):
    """||got - want|| / ||want|| in float64; NaN anywhere fails."""
    got, want = got.double(), want.double()
    error = (torch.linalg.vector_norm(got - want) / torch.linalg.vector_norm(want)).item()
    return error if error == error else float("inf")


def sum_error(got, x, dim=None):
    """Error of a float32 sum relative to the sum of magnitudes, which bounds its rounding."""
    want = x.double().sum() if dim is None else x.double().sum(dim=dim)
    scale = x.double().abs().sum() if dim is None else x.double().abs().sum(dim=dim)
    error = ((got.double() - want).abs() / scale).max().item()
    return error if error == error else float("inf")


def time_op(name, fn, warmups, repeats):
    for _ in range(warmups):
        fn()
    times = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    print(f"op {name} median_ms {statistics.median(times):.6f} min_ms {min(times):.6f} "
          f"max_ms {max(times):.6f} launches {warmups + repeats}", flush=True)


def check(name, error, tolerance):
    ok = error < tolerance
    print(f"check {name} {'ok' if ok else 'FAILED'} relative error {error:.2e} (tolerance {tolerance:.0e})", flush=True)
    return ok


class Inputs:
    """The ops' random operands, each made on its first use."""

    def __init__(self, dev, n, elements, rows, cols):
        self.dev, self.n, self.elements, self.rows, self.cols = dev, n, elements, rows, cols

    @functools.cached_property
    def a(self):
        return torch.randn(self.n, self.n, device=self.dev)

    @functools.cached_property
    def b(self):
        return torch.randn(self.n, self.n, device=self.dev)

    @functools.cached_property
    def x(self):
        return torch.randn(self.elements, device=self.dev)

    @functools.cached_property
    def m(self):
        return torch.randn(self.rows, self.cols, device=self.dev)

    @functools.cached_property
    def weight(self):
        return torch.rand(self.cols, device=self.dev) + 0.5

    @functools.cached_property
    def bias(self):
        return torch.randn(self.cols, device=self.dev)

    @functools.cached_property
    def ab16(self):
        return self.a.bfloat16()

    @functools.cached_property
    def bb16(self):
        return self.b.bfloat16()

    def make_all(self):
        """In the order the ops' inputs were always made, so that a run of every op launches as before."""
        for name in ("a", "b", "x", "m", "weight", "bias", "ab16", "bb16"):
            getattr(self, name)


OPS = ("matmul_fp32", "matmul_bf16", "elementwise_axpb", "elementwise_gelu", "softmax", "layernorm", "sum_all",
       "sum_rows")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="quick sizes, for tests")
    parser.add_argument("--warmups", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--op", choices=OPS, help="run this op alone")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("error: PyTorch sees no CUDA GPU")
    torch.seed()  # fresh random inputs on every run
    # FP32 means FP32 FMAs, not TF32 tensor cores (PyTorch's default; newer versions spell it differently).
    if hasattr(torch.backends.cuda.matmul, "fp32_precision"):
        torch.backends.cuda.matmul.fp32_precision = "ieee"
    else:
        torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    n = 1024 if args.small else 4096            # matrix side
    elements = (1 << 20) if args.small else (1 << 26)
    rows, cols = (1024, 1024) if args.small else (8192, 8192)
    props = torch.cuda.get_device_properties(dev)
    print(f"workload pytorch_ops: matmul {n}^3, elementwise {elements}, rows {rows}x{cols} on {props.name} "
          f"({props.multi_processor_count} SMs), torch {torch.__version__}", flush=True)

    t = Inputs(dev, n, elements, rows, cols)
    if args.op is None:
        t.make_all()
    rows_checked = slice(0, 64)  # float64 references of a row block keep the checks quick

    ops = {
        "matmul_fp32": (lambda: t.a @ t.b,
                        lambda out: relative_error(out[rows_checked], t.a[rows_checked].double() @ t.b.double()),
                        1e-4),
        "matmul_bf16": (lambda: t.ab16 @ t.bb16,
                        lambda out: relative_error(out[rows_checked], t.ab16[rows_checked].double() @ t.bb16.double()),
                        1e-2),
        "elementwise_axpb": (lambda: t.x * 1.5 + 0.25,
                             lambda out: relative_error(out, t.x.double() * 1.5 + 0.25), 1e-6),
        "elementwise_gelu": (lambda: torch.nn.functional.gelu(t.x),
                             lambda out: relative_error(out, torch.nn.functional.gelu(t.x.double())), 1e-5),
        "softmax": (lambda: torch.softmax(t.m, dim=-1),
                    lambda out: relative_error(out[rows_checked], torch.softmax(t.m[rows_checked].double(), dim=-1)),
                    1e-5),
        "layernorm": (lambda: torch.nn.functional.layer_norm(t.m, (cols,), t.weight, t.bias),
                      lambda out: relative_error(out[rows_checked], torch.nn.functional.layer_norm(
                          t.m[rows_checked].double(), (cols,), t.weight.double(), t.bias.double())), 1e-4),
        "sum_all": (lambda: t.x.sum(), lambda out: sum_error(out, t.x), 1e-5),
        "sum_rows": (lambda: t.m.sum(dim=1), lambda out: sum_error(out, t.m, dim=1), 1e-5),
    }
    assert set(ops) == set(OPS)
    ok = True
    for name, (run, error_of, tolerance) in ops.items():
        if args.op is not None and name != args.op:
            continue
        ok &= check(name, error_of(run()), tolerance)
        time_op(name, run, args.warmups, args.repeats)
    torch.cuda.synchronize()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
