#!/usr/bin/python3
"""Time package kernel against its numpy / scipy / scikit-learn peers in one
run and print the ratios Arbor/peer (< 1 means Arbor is faster).

Run from the repository root or from here:
    /usr/bin/python3 kernel/testdata/peer_time.py [--sizes 2000 8000] [--reps 3] [--count 3]

Data: uniform [0,1)^10 (numpy RandomState(0) for the peer; Arbor's
benchmarks draw the same distribution with a fixed PCG seed: the timed
operations hardly depend on the values). Peer timings are the best of
--reps runs, Arbor's the best of --count single `go test -bench` runs
(-benchtime 1x -count N). Both use all cores (numpy's BLAS threads, Go's
GOMAXPROCS). On a shared machine, compare ratios from one run.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time

import numpy as np
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import pdist, squareform
from sklearn.metrics.pairwise import (laplacian_kernel, linear_kernel,
                                      polynomial_kernel, rbf_kernel)

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import peers  # noqa: E402  (double_center, psd_clip)


def best(fn, reps):
    t = math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def peer_times(sizes, reps):
    out = {}
    for n in sizes:
        X = np.random.RandomState(0).rand(n, 10)
        r = reps if n <= 2000 else max(1, reps - 1)
        out["Gram/kernel=linear/n=%d" % n] = best(lambda: linear_kernel(X), r)
        out["Gram/kernel=poly/n=%d" % n] = best(
            lambda: polynomial_kernel(X, degree=3, gamma=0.1, coef0=1), r)
        out["Gram/kernel=rbf/n=%d" % n] = best(lambda: rbf_kernel(X, gamma=0.5), r)
        out["Gram/kernel=laplacian/n=%d" % n] = best(lambda: laplacian_kernel(X, gamma=0.5), r)
        Z = linkage(pdist(X), "average")
        M = squareform(cophenet(Z))
        out["Center/n=%d" % n] = best(lambda: peers.double_center(M), r)
        out["CopheneticCenter/n=%d" % n] = best(
            lambda: peers.double_center(squareform(cophenet(Z))), r)
        if n <= 2000:
            for m in ("single", "average"):
                out["HCK/method=%s/n=%d" % (m, n)] = best(
                    lambda m=m: peers.double_center(peers.cophenetic_matrix(pdist(X), m)), r)

            def build_all():  # peers.build_kernels' cluster kernels, sharing pdist and G
                D = pdist(X)
                G, _ = peers.knn_geodesic(X)
                Gc = squareform(G, checks=False)
                for m in peers.LINKAGES:
                    peers.double_center(peers.cophenetic_matrix(D, m))
                    peers.double_center(peers.cophenetic_matrix(Gc, m))
            out["BuildAll/n=%d" % n] = best(build_all, r)
            out["Cross/n=%d" % n] = best(lambda: rbf_kernel(X, X, gamma=0.5), r)
            K = rbf_kernel(X, gamma=0.5)

            def induced():
                d = np.diag(K)
                return squareform(np.sqrt(np.maximum(d[:, None] + d[None, :] - 2 * K, 0)), checks=False)
            out["InducedDistance/n=%d" % n] = best(induced, r)
    XU = np.random.RandomState(0).rand(1500, 241)  # the USPS shape
    out["GramUSPS/kernel=linear/n=1500/d=241"] = best(lambda: linear_kernel(XU), reps)
    out["GramUSPS/kernel=rbf/n=1500/d=241"] = best(lambda: rbf_kernel(XU, gamma=1e-3), reps)
    for n in (500, 1500):
        X5 = np.random.RandomState(0).rand(n, 10)
        out["ISOMAP/n=%d" % n] = best(
            lambda: peers.psd_clip(peers.double_center(peers.knn_geodesic(X5)[0] ** 2)), reps)
        rs = np.random.RandomState(0)
        A = rs.rand(n, n) * 2
        K = peers.double_center(np.triu(A) + np.triu(A, 1).T)
        out["ClipPSD/n=%d" % n] = best(lambda: peers.psd_clip(K), reps)

        def embed():
            w, V = np.linalg.eigh(K)
            return V[:, -2:][:, ::-1] * np.sqrt(np.maximum(w[-2:][::-1], 0))
        out["Embed/n=%d" % n] = best(embed, reps)
        if n == 500:
            out["PseudoInverse/n=500"] = best(lambda: np.linalg.pinv(K, rcond=1e-10, hermitian=True), reps)
    return out


def go_times(count, short):
    pat = "^Benchmark(Gram|GramUSPS|Center|CopheneticCenter|HCK|BuildAll|ISOMAP|Cross|InducedDistance|ClipPSD|PseudoInverse|Embed)$"
    cmd = ["go", "test", "-run", "^$", "-bench", pat, "-benchtime", "1x", "-count", str(count), "./kernel/"]
    if short:
        cmd.append("-short")
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(res.stdout + res.stderr)
    out = {}
    for line in res.stdout.splitlines():
        m = re.match(r"Benchmark(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m:
            t = float(m.group(3)) * 1e-9
            out[m.group(1)] = min(t, out.get(m.group(1), math.inf))  # best of count, like the peer
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--count", type=int, default=3, help="Go runs per benchmark (best is kept)")
    a = p.parse_args()
    peer = peer_times(a.sizes, a.reps)
    arbor = go_times(a.count, short=max(a.sizes) <= 2000)
    print("| operation | Arbor s | peer s | Arbor/peer |")
    print("| --- | ---: | ---: | ---: |")
    for name, tp in peer.items():
        if name in arbor:
            print("| %s | %.4f | %.4f | %.2f |" % (name, arbor[name], tp, arbor[name] / tp))
    print("\nload average (1, 5, 15 min): %.1f %.1f %.1f, cores: %d" % (os.getloadavg() + (os.cpu_count(),)))


if __name__ == "__main__":
    main()
