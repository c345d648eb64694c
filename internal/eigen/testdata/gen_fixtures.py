#!/usr/bin/python3
"""Reference eigen-decompositions for internal/eigen tests (numpy.linalg.eigh,
LAPACK dsyevd).

Matrices are rebuilt identically in Go (fixture_test.go) from the 64-bit LCG
s <- s*6364136223846793005 + 1442695040888963407 (mod 2**64),
u = (s >> 11) / 2**53 - 0.5, filling B (n x n) row-major:
  sym120:    B 120x120 (seed 5), A = (B + B^T) / 2
  graded80:  B 80x80 (seed 9), A = ldexp((B + B^T) / 2, -((i + j) // 4))
             (exact power-of-two grading from 1 down to 2^-39)
  lowrank90: X = B[:, :4] of B 90x90 (seed 3), A = X X^T (rank 4, 86 zero eigenvalues)
  sym40v:    B 40x40 (seed 17), A = (B + B^T) / 2, eigenvectors stored too
Writes eigh.json: {"numpy": version, name: {"n", "seed", "values" (ascending),
["vectors" row-major for sym40v]}}.
Run: cd internal/eigen/testdata && /usr/bin/python3 gen_fixtures.py
"""
import json

import numpy as np

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


def sym(n, seed):
    B = lcg_matrix(n, seed)
    return (B + B.T) / 2


def graded(n, seed):
    A = sym(n, seed)
    i, j = np.indices((n, n))
    return np.ldexp(A, -((i + j) // 4))


def lowrank(n, seed):
    X = lcg_matrix(n, seed)[:, :4]
    return X @ X.T


def main():
    out = {"numpy": np.__version__}
    for name, n, seed, make, vec in [
        ("sym120", 120, 5, sym, False),
        ("graded80", 80, 9, graded, False),
        ("lowrank90", 90, 3, lowrank, False),
        ("sym40v", 40, 17, sym, True),
    ]:
        A = make(n, seed)
        w, V = np.linalg.eigh(A)
        rec = {"n": n, "seed": seed, "values": [float(x) for x in w]}
        if vec:
            rec["vectors"] = [float(x) for x in V.reshape(-1)]
        out[name] = rec
    with open("eigh.json", "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
