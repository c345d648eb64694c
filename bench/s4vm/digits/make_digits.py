#!/usr/bin/python3
"""Writes scikit-learn's digits (load_digits: 1,797 rows, 64 pixel features
0-16, 10 classes) as CSV for the S4VM timing run.

    /usr/bin/python3 bench/s4vm/digits/make_digits.py OUT.csv [--labeled-per-class 10 --seed 1]

Columns p0..p63 and label. With --labeled-per-class N only N rows per class
(drawn by numpy's default_rng(seed), per class in class order) keep their
label; the others are written with an empty label (unlabelled), the form
`arbor classify` reads. Without it every row keeps its label (for `arbor
eval`, which draws its own splits).
"""
import argparse

import numpy as np
from sklearn.datasets import load_digits


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--labeled-per-class", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    X, y = load_digits(return_X_y=True)
    keep = np.ones(len(y), bool)
    if a.labeled_per_class:
        rng = np.random.default_rng(a.seed)
        keep[:] = False
        for c in np.unique(y):
            idx = np.flatnonzero(y == c)
            keep[rng.choice(idx, a.labeled_per_class, replace=False)] = True
    with open(a.out, "w") as f:
        f.write(",".join(f"p{j}" for j in range(X.shape[1])) + ",label\n")
        for i in range(len(y)):
            f.write(",".join(str(int(v)) for v in X[i]) + "," + (str(int(y[i])) if keep[i] else "") + "\n")


if __name__ == "__main__":
    main()
