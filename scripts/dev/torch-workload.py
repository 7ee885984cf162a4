"""A small PyTorch workload for checking the collector: a matmul, an elementwise op and a
reduction, on random data, a few times each. Prints one check line."""
import torch

def main():
    torch.manual_seed(0)
    device = torch.device("cuda")
    a = torch.randn(4096, 4096, device=device)
    b = torch.randn(4096, 4096, device=device)
    x = torch.randn(1 << 26, device=device)  # 256 MB: larger than L2
    for _ in range(3):
        c = a @ b                    # cuBLAS GEMM (fp32; TF32 off by default)
        y = torch.sin(x) * 2.0 + x   # elementwise
        s = y.sum()                  # reduction
    torch.cuda.synchronize()
    reference = (a[:4].double() @ b.double()[:, :4])
    error = (c[:4, :4].double() - reference).abs().max().item() / reference.abs().max().item()
    print(f"torch workload: matmul rel. error {error:.2e}, sum {s.item():.4e}")
    if not error < 1e-3:
        raise SystemExit("torch workload: wrong matmul result")

if __name__ == "__main__":
    main()
