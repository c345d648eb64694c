#!/usr/bin/python3
"""Reference eigenvalues for internal/lanczos tests (numpy.linalg.eigh).

Matrices are rebuilt identically in Go (lanczos_test.go) from the 64-bit LCG
s <- s*6364136223846793005 + 1442695040888963407, u = (s >> 11) / 2**53:
  rbf300:  300 points in 8-D (seed 7), A_ij = exp(-2 ||x_i - x_j||^2)
  sym200:  B 200x200 uniform(-0.5, 0.5) row-major (seed 11), A = (B + B^T) / 2
  low150:  X 150x5 uniform (seed 13), A = X X^T (rank 5)
Writes eigs.json: eigenvalues in decreasing order (top 60 for rbf300, all for the others).
Run: /usr/bin/python3 gen_fixtures.py   (numpy version recorded in the file)
"""
import json

import numpy as np

MUL = 6364136223846793005
INC = 1442695040888963407
MASK = (1 << 64) - 1


def lcg(n, seed):
    s = seed
    out = np.empty(n)
    for i in range(n):
        s = (s * MUL + INC) & MASK
        out[i] = (s >> 11) / float(1 << 53)
    return out


def rbf(X, gamma):
    n = len(X)
    A = np.empty((n, n))
    for i in range(n):
        A[i] = np.exp(-gamma * ((X - X[i]) ** 2).sum(1))
    return A


def main():
    X = lcg(300 * 8, 7).reshape(300, 8)
    B = lcg(200 * 200, 11).reshape(200, 200) - 0.5
    Y = lcg(150 * 5, 13).reshape(150, 5)
    mats = {"rbf300": (rbf(X, 2.0), 60), "sym200": ((B + B.T) / 2, 200), "low150": (Y @ Y.T, 150)}
    out = {"numpy": np.__version__}
    for name, (A, top) in mats.items():
        w = np.linalg.eigh(A)[0][::-1]
        out[name] = [float(v) for v in w[:top]]
    with open("eigs.json", "w") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
