#!/usr/bin/python3
"""Time scikit-learn's LabelPropagation / LabelSpreading on the benchmark data.

Run: /usr/bin/python3 peer_time.py [--write] [--reps R] [--ops lp_rbf lp_knn ls_rbf ls_knn]
Data: make_moons(5000, noise=0.1, random_state=0), z-scored, 10 labelled points
per class (peers.per_class_split seed 0). --write (re)creates moons5000.csv.gz,
which BenchmarkLabelPropagation/n=5000 and BenchmarkLabelSpreading/n=5000
read, so both sides time the same problem. Prints one JSON object per line
(best of --reps runs).
"""
import argparse
import gzip
import json
import os
import sys
import time
import warnings

import numpy as np
from sklearn.datasets import make_moons
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
sys.dont_write_bytecode = True
import peers  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--ops", nargs="+", default=["lp_rbf", "lp_knn", "ls_rbf", "ls_knn"])
    a = ap.parse_args()
    X, y = make_moons(5000, noise=0.1, random_state=0)
    X = peers.scale(X, "std")
    L = peers.per_class_split(y, 10, 0)
    yp = np.full(len(y), -1)
    yp[L] = y[L]
    path = os.path.join(HERE, "moons5000.csv.gz")
    if a.write:
        with gzip.open(path, "wt") as fh:
            fh.write("f1,f2,label\n")
            for x, l in zip(X, yp):
                fh.write("%r,%r,%d\n" % (x[0], x[1], l))
    for name, make in (("lp_rbf", lambda: LabelPropagation(kernel="rbf", gamma=20, max_iter=1000)),
                       ("lp_knn", lambda: LabelPropagation(kernel="knn", n_neighbors=7, max_iter=1000)),
                       ("ls_rbf", lambda: LabelSpreading(kernel="rbf", gamma=20)),
                       ("ls_knn", lambda: LabelSpreading(kernel="knn", n_neighbors=7))):
        if name not in a.ops:
            continue
        best = float("inf")
        for _ in range(a.reps):
            m = make()
            t0 = time.perf_counter()
            m.fit(X, yp)
            best = min(best, time.perf_counter() - t0)
        acc = float((m.transduction_ == y).mean())
        print(json.dumps(dict(op=name, n=len(y), time_s=round(best, 4), n_iter=int(m.n_iter_), acc=round(acc, 4))), flush=True)


if __name__ == "__main__":
    main()
