#!/usr/bin/python3
"""Time Arbor's distance.Euclidean against scipy.spatial.distance.pdist on
the same data in one run.

    /usr/bin/python3 distance/testdata/peer_time.py [--sizes 2000 8000] [--reps 3]

(run from the repository root). Data: numpy RandomState(0).rand(N, 10), as
in `peers.py timing`, written to a temporary raw float64 file read by
distance/testdata/pdisttime. Prints one JSON line per size: best times,
ratio go/scipy, and whether the two condensed matrices are bit-identical
(checked through compensated sums).
"""
import argparse
import json
import math
import os
import subprocess
import tempfile
import time

import numpy as np
from scipy.spatial.distance import pdist


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000])
    p.add_argument("--dim", type=int, default=10)
    p.add_argument("--reps", type=int, default=3)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "pdisttime")
        subprocess.run(["go", "build", "-o", exe, "./distance/testdata/pdisttime"], check=True)
        for n in a.sizes:
            X = np.random.RandomState(0).rand(n, a.dim)
            xf = os.path.join(tmp, "X.f64")
            X.astype("<f8").tofile(xf)

            def run_go():
                out = subprocess.run([exe, "-x", xf, "-n", str(n), "-d", str(a.dim), "-reps", str(a.reps)],
                                     check=True, capture_output=True, text=True)
                return json.loads(out.stdout)

            go = run_go()
            best, D = math.inf, None
            for _ in range(a.reps):
                t0 = time.perf_counter()
                D = pdist(X)
                best = min(best, time.perf_counter() - t0)
            go2 = run_go()
            go_s = min(go["go_s"], go2["go_s"])
            s = math.fsum(D)
            print(json.dumps({"N": n, "dim": a.dim, "scipy_s": round(best, 5), "go_s": round(go_s, 5),
                              "ratio": round(go_s / best, 4), "sum_rel_diff": abs(s - go["sum"]) / s,
                              "gomaxprocs": go["gomaxprocs"]}), flush=True)


if __name__ == "__main__":
    main()
