#!/usr/bin/python3
"""Whole-process timing of the exact ISOMAP kernel: `arbor kernel --kernel
isomap --out K.npy` beside the NumPy version of the reference pipeline
(numpy_isomap.py: SciPy Dijkstra on the 7-NN graph, double centring,
numpy.linalg.eigh for the PSD clip), alternating, best of REPS, with the
CPU time (user + system, all threads) of each run and max |K_arbor − K_numpy|.

    go build -o /tmp/arbor ./cmd/arbor
    Rscript bench/lmacc/export.R /tmp/lmacc          # satellite.csv (mlbench Satellite)
    /usr/bin/python3 bench/isomap/measure.py /tmp/arbor /tmp/lmacc/satellite.csv [REPS]
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit("failed: %s" % " ".join(cmd))
    return wall, ru.ru_utime + ru.ru_stime


def main():
    arbor, data = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    tmp = tempfile.mkdtemp()
    ka, kn = os.path.join(tmp, "arbor.npy"), os.path.join(tmp, "numpy.npy")
    best = {"arbor": (float("inf"), 0.0), "numpy": (float("inf"), 0.0)}
    for _ in range(reps):
        w, c = run([arbor, "kernel", "--data", data, "--kernel", "isomap", "--out", ka, "--quiet"])
        print("arbor kernel --kernel isomap: %.2f s wall, %.2f s CPU" % (w, c), flush=True)
        best["arbor"] = min(best["arbor"], (w, c))
        w, c = run(["/usr/bin/python3", os.path.join(HERE, "numpy_isomap.py"), data, kn])
        print("numpy_isomap.py:              %.2f s wall, %.2f s CPU" % (w, c), flush=True)
        best["numpy"] = min(best["numpy"], (w, c))
    (wa, ca), (wn, cn) = best["arbor"], best["numpy"]
    d = np.abs(np.load(ka) - np.load(kn)).max()
    print("ratio arbor/numpy: wall %.2f, CPU %.2f; max |K_arbor - K_numpy| = %.3g" % (wa / wn, ca / cn, d))


if __name__ == "__main__":
    main()
