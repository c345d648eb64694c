#!/usr/bin/python3
"""Fixtures for dataset/scale_test.go.

Run from dataset/testdata with Debian's python:  /usr/bin/python3 gen_fixtures.py
Reads ../data/iris.csv.gz (the embedded iris set)
and writes iris_std.csv and iris_minmax.csv: the feature matrix scaled exactly
as peers.py scale(X, "std") / scale(X, "minmax") (numpy, population std,
constant columns -> 0), printed with repr (17 significant digits).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "data", "iris.csv.gz")


def scale(X, how):  # as bench/peers/peers.py
    if how == "std":
        mu, sd = X.mean(0), X.std(0)
        sd[sd == 0] = 1.0
        return (X - mu) / sd
    if how == "minmax":
        lo, hi = X.min(0), X.max(0)
        rng = hi - lo
        rng[rng == 0] = 1.0
        return (X - lo) / rng
    raise ValueError(how)


def main():
    data = np.loadtxt(SRC, delimiter=",", skiprows=1, ndmin=2)
    X = data[:, :-1]
    for how in ("std", "minmax"):
        Z = scale(X, how)
        with open(os.path.join(HERE, "iris_%s.csv" % how), "w") as fh:
            fh.write("# numpy %s, python %s: peers.py scale(iris, %r)\n"
                     % (np.__version__, sys.version.split()[0], how))
            for row in Z:
                fh.write(",".join(repr(float(v)) for v in row) + "\n")


if __name__ == "__main__":
    main()
