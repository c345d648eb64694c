#!/usr/bin/python3
"""Time hclust against SciPy on the same data, in one run, and print ratios.

    cd hclust && /usr/bin/python3 testdata/peer_time.py [--sizes 2000 8000] [--rounds 3]

For each N: X = numpy RandomState(0).rand(N, 10) (as peers.py timing) is
written to a temporary file that the Go side (BenchmarkPeerTime in peer_test.go,
built once with `go test -c`) reads, so both sides cluster identical points.
Rounds alternate SciPy and Go so that both see the same machine load; each
op keeps its best wall time and, separately, its best CPU time (user + system,
all threads; SciPy is single-threaded, Go's matrix fills use GOMAXPROCS
threads). CPU ratios are steadier than wall ratios on a shared machine.
Ratios are Go / SciPy (below 1 = Go faster):

  linkage_M          Linkage(condensed D)  vs linkage(D, M)
  frompoints_M       FromPoints(X)         vs linkage(pdist(X), M)
  ultrametric        Tree.Ultrametric(dst) vs squareform(cophenet(Z))
  cophenetic         Tree.Cophenetic()     vs cophenet(Z)

It also checks that Go's average-linkage matrix equals SciPy's bit for bit.
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

import numpy as np
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import pdist, squareform

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)


def best_of(fn, reps):
    """Best wall time and best CPU time (process_time) of reps calls."""
    best, best_cpu = float("inf"), float("inf")
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best, best_cpu


def scipy_round(X, reps):
    D = pdist(X)
    t = {}
    for m in ("average", "single", "complete"):
        t["linkage_" + m] = best_of(lambda m=m: linkage(D, method=m), reps)
    for m in ("single", "average"):
        t["frompoints_" + m] = best_of(lambda m=m: linkage(pdist(X), method=m), reps)
    Z = linkage(D, method="average")
    t["ultrametric"] = best_of(lambda: squareform(cophenet(Z)), reps)
    t["ultrametric_alloc"] = t["ultrametric"]
    t["cophenetic"] = best_of(lambda: cophenet(Z), reps)
    return t, Z


def go_round(binary, xpath, zpath, reps):
    env = dict(os.environ, HCLUST_PEER_X=xpath, HCLUST_PEER_Z=zpath, HCLUST_PEER_DIM="10",
               HCLUST_PEER_REPS=str(reps))
    out = subprocess.run([binary, "-test.run", "^$", "-test.bench", "^BenchmarkPeerTime$", "-test.benchtime", "1x"], cwd=PKG, env=env,
                         check=True, capture_output=True, text=True).stdout
    t, same = {}, None
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == "PEER":
            if f[1] == "identical_average_Z":
                same = f[2] == "true"
            else:
                t[f[1]] = (float(f[2]), float(f[3]))
    return t, same


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000])
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "hclust.test")
        subprocess.run(["go", "test", "-c", "-o", binary, "."], cwd=PKG, check=True)
        print("threads: %d (GOMAXPROCS=%s)" % (os.cpu_count(), os.environ.get("GOMAXPROCS", "all")))
        print("%-18s %6s %9s %9s %6s | %9s %9s %6s" % ("op", "N", "scipy_s", "go_s", "ratio",
                                                        "scipy_cpu", "go_cpu", "ratio"))
        for N in a.sizes:
            X = np.random.RandomState(0).rand(N, 10)
            xpath, zpath = os.path.join(tmp, "x.bin"), os.path.join(tmp, "z.bin")
            X.astype("<f8").tofile(xpath)
            reps = 3 if N <= 2000 else 1
            sp, gp, same = {}, {}, True
            for _ in range(a.rounds):
                s, Z = scipy_round(X, reps)
                Z.astype("<f8").tofile(zpath)
                g, ok = go_round(binary, xpath, zpath, reps)
                same = same and bool(ok)
                for d, r in ((sp, s), (gp, g)):
                    for k, v in r.items():
                        old = d.get(k, v)
                        d[k] = (min(old[0], v[0]), min(old[1], v[1]))
            for op in sp:
                (sw, sc), (gw, gc) = sp[op], gp[op]
                print("%-18s %6d %9.4f %9.4f %6.2f | %9.4f %9.4f %6.2f" % (op, N, sw, gw, gw / sw, sc, gc, gc / sc))
            print("%-18s %6d identical to SciPy: %s" % ("average Z", N, same))


if __name__ == "__main__":
    main()
