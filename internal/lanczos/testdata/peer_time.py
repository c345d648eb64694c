#!/usr/bin/python3
"""Time scipy.sparse.linalg.eigsh(k, which='LA') on the benchmark matrix of
internal/lanczos (see bench_test.go: the same LCG points, the same RBF matrix).

Matrix: N points in D=8 dimensions, coordinates u = (s >> 11) / 2**53 of the
64-bit LCG s <- s*6364136223846793005 + 1442695040888963407 (mod 2**64),
seed s0 = 42, row-major; A_ij = exp(-GAMMA * ||x_i - x_j||^2), GAMMA = 2.

Usage: /usr/bin/python3 peer_time.py [N] [k...]   (default 4000, k = 10 20 50)
Prints one JSON object per k: {"n", "k", "seconds" (best of REPS), "top" (largest eigenvalue)}.
"""
import json
import sys
import time

import numpy as np
import scipy
from scipy.sparse.linalg import eigsh

D = 8
GAMMA = 2.0
REPS = 1  # the Go side (bench_test.go BenchmarkPeerRatio) alternates runs and keeps the best
MUL = 6364136223846793005
INC = 1442695040888963407
MASK = (1 << 64) - 1


def lcg_points(n, d, seed=42):
    s = seed
    out = np.empty(n * d)
    for i in range(n * d):
        s = (s * MUL + INC) & MASK
        out[i] = (s >> 11) / float(1 << 53)
    return out.reshape(n, d)


def rbf(X, gamma):
    sq = (X * X).sum(1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
    return np.exp(-gamma * D2)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    ks = [int(a) for a in sys.argv[2:]] or [10, 20, 50]
    A = rbf(lcg_points(n, D), GAMMA)
    for k in ks:
        best = float("inf")
        for rep in range(REPS):
            v0 = np.ones(n)
            t = time.perf_counter()
            w, _ = eigsh(A, k=k, which="LA", v0=v0)
            best = min(best, time.perf_counter() - t)
        print(json.dumps({"n": n, "k": k, "seconds": best, "top": float(w.max()),
                          "scipy": scipy.__version__}))


if __name__ == "__main__":
    main()
