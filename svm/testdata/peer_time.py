#!/usr/bin/python3
"""Side-by-side timing of package svm against LIBSVM (scikit-learn's SVC /
OneClassSVM with kernel="precomputed", which run LIBSVM's solver).

Run from the repository root:

    /usr/bin/python3 svm/testdata/peer_time.py [--sizes 2000 5000 10000] [--reps 3]

Data as peers.py timing mode: X = RandomState(0).rand(N, 10),
y = [x1 + x2 > 1] with 10% of the labels flipped, RBF Gram matrix with
gamma = 1/(10 Var X). The Go benchmarks (bench_test.go) rebuild exactly
this X with NumPy's MT19937 stream, so both sides train on the same matrix.
For each N, peer fits and `go test -bench` runs alternate --reps times
(one fewer for N > 5000) and the best wall time of each side is kept, so
both see the same machine load. Printed: wall seconds, the ratio Go/peer, the ratio of
CPU times (process time; Go's includes the concurrent input check), and
the dual objective of both (the peer's recomputed from its dual coefficients with the kernel
rounded to float32, i.e. the value LIBSVM itself reports).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.spatial.distance import pdist, squareform
from sklearn.svm import SVC, OneClassSVM

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def data(n, dim=10):
    rs = np.random.RandomState(0)
    X = rs.rand(n, dim)
    y = (X[:, 0] + X[:, 1] > 1.0).astype(int)
    flip = rs.rand(n) < 0.1
    y[flip] = 1 - y[flip]
    K = np.exp(-squareform(pdist(X, "sqeuclidean")) / (dim * X.var()))
    return X, y, K


def best(fn, reps):
    """Best wall time over reps, with the CPU time of that run."""
    t, cpu, res = float("inf"), 0.0, None
    for _ in range(reps):
        c0, t0 = time.process_time(), time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t0
        if dt < t:
            t, cpu = dt, time.process_time() - c0
    return (t, cpu), res


def svc_objective(clf, K):
    sv = clf.support_
    c = clf._dual_coef_[0]
    Ks = K[np.ix_(sv, sv)].astype(np.float32).astype(np.float64)
    return 0.5 * c @ Ks @ c - np.abs(c).sum()


def go_bench(pattern, count):
    """Runs the Go benchmarks; returns name -> (best seconds, record)."""
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    env = dict(os.environ, SVM_BENCH_JSON=path)
    cmd = ["go", "test", "./svm", "-run", "^$", "-bench", pattern, "-benchtime", "1x", "-count", str(count)]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("go test failed:\n" + r.stdout + r.stderr)
    res = {}
    with open(path) as fh:
        for line in fh:
            r = json.loads(line)
            name = r["bench"].split("-")[0].replace("Benchmark", "", 1)
            t = r["ns"] / 1e9
            if name not in res or t < res[name][0]:
                res[name] = (t, r)
    os.remove(path)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[2000, 5000, 10000])
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    rows = []
    for n in a.sizes:
        X, y, K = data(n)
        reps = a.reps if n <= 5000 else max(1, a.reps - 1)
        peer, go = {}, {}
        # Alternate peer and Go runs and keep the best of each, so that
        # both sides see the same (shared) machine load.
        for _ in range(reps):
            for C in (1, 100):
                name = "FitGram/n=%d/C=%d" % (n, C)
                t, clf = best(lambda: SVC(kernel="precomputed", C=C, cache_size=200).fit(K, y), 1)
                if name not in peer or t[0] < peer[name][0][0]:
                    peer[name] = (t, svc_objective(clf, K), int(clf.n_support_.sum()))
            name = "SVDDGram/n=%d/nu=0.1" % n
            t, oc = best(lambda: OneClassSVM(kernel="precomputed", nu=0.1, cache_size=200).fit(K), 1)
            if name not in peer or t[0] < peer[name][0][0]:
                peer[name] = (t, None, len(oc.support_))
            for k, v in go_bench("Benchmark(FitGram|SVDDGram)/n=%d/" % n, 1).items():
                if k not in go or v[0] < go[k][0]:
                    go[k] = v
        del K
        for name, ((tp, cp), obj, nsv) in peer.items():
            tg, extra = go.get(name, (float("nan"), {}))
            cg = extra.get("cpu_ns", float("nan")) / 1e9
            rec = {"bench": name, "peer_s": round(tp, 4), "go_s": round(tg, 4), "ratio": round(tg / tp, 3),
                   "peer_cpu_s": round(cp, 4), "go_cpu_s": round(cg, 4), "cpu_ratio": round(cg / cp, 3),
                   "peer_nSV": nsv, "go_nSV": extra.get("nSV")}
            if obj is not None:
                rec["peer_obj"] = obj
                rec["go_obj"] = extra.get("obj")
                if rec["go_obj"] is not None:
                    rec["obj_rel_diff"] = abs(rec["go_obj"] - obj) / abs(obj)
            print(json.dumps(rec), flush=True)
            rows.append(rec)
    print("\n| benchmark | LIBSVM (sklearn) s | Go s | ratio | CPU ratio | objective rel. diff |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        od = r.get("obj_rel_diff")
        print("| %s | %.3f | %.3f | %.2f | %.2f | %s |" % (r["bench"], r["peer_s"], r["go_s"], r["ratio"],
                                                         r["cpu_ratio"], "%.1e" % od if od is not None else "-"))


if __name__ == "__main__":
    sys.exit(main())
