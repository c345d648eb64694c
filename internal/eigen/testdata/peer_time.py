#!/usr/bin/python3
"""Time numpy.linalg.eigh (LAPACK dsyevd through numpy's linked BLAS/LAPACK)
on the benchmark matrices of internal/eigen (bench_test.go BenchmarkPeerRatio).

Matrix: B (N x N) row-major from the 64-bit LCG
s <- s*6364136223846793005 + 1442695040888963407 (mod 2**64), seed 1,
u = (s >> 11) / 2**53 - 0.5; A = (B + B^T) / 2.

Usage: /usr/bin/python3 peer_time.py N [values]   ("values": eigvalsh only)
Prints one JSON object: {"n", "seconds" (wall, best of REPS), "cpu_seconds" (process CPU
time, all BLAS threads), "max" (largest eigenvalue), "numpy"}.
"""
import json
import sys
import time

import numpy as np

REPS = 1  # the Go side alternates Go and numpy runs and keeps the best of each
MUL = 6364136223846793005
INC = 1442695040888963407
MASK = (1 << 64) - 1


def lcg_matrix(n, seed):
    s = seed
    out = np.empty(n * n)
    for i in range(n * n):
        s = (s * MUL + INC) & MASK
        out[i] = (s >> 11) / float(1 << 53) - 0.5
    return out.reshape(n, n)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    values = len(sys.argv) > 2 and sys.argv[2] == "values"
    B = lcg_matrix(n, 1)
    A = (B + B.T) / 2
    best, best_cpu = float("inf"), float("inf")
    for _ in range(REPS):
        t, c = time.perf_counter(), time.process_time()
        if values:
            w = np.linalg.eigvalsh(A)
        else:
            w, _ = np.linalg.eigh(A)
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
    print(json.dumps({"n": n, "seconds": best, "cpu_seconds": best_cpu, "max": float(w.max()),
                      "numpy": np.__version__}))


if __name__ == "__main__":
    main()
