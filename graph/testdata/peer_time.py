#!/usr/bin/python3
"""Time Arbor's graph.Geodesic against the peer, peers.knn_geodesic
(sklearn kneighbors_graph + scipy Dijkstra), on the same data in one run.

    /usr/bin/python3 graph/testdata/peer_time.py [--sizes 2000 8000] [--reps 3] [--exact]

(run from the repository root). Data: numpy RandomState(0).rand(N, 10), as
in `peers.py timing`; it is written to a temporary raw float64 file that the
Go program graph/testdata/geotime reads. Prints one JSON line per size with
both times (best of --reps; 1 rep for N > 2000), their ratio go/peer (target:
<= 0.25) and a check that both geodesic matrices have the same
sum (relative difference < 1e-9). --exact times Geodesics{Exact: true}
(every row by a search; bit-identical to the peer) instead of the default.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.spatial.distance import squareform

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
import peers  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000])
    p.add_argument("--dim", type=int, default=10)
    p.add_argument("--k", type=int, default=7)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--exact", action="store_true")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "geotime")
        subprocess.run(["go", "build", "-o", exe, "./graph/testdata/geotime"], check=True)
        for n in a.sizes:
            X = np.random.RandomState(0).rand(n, a.dim)
            xf = os.path.join(tmp, "X.f64")
            X.astype("<f8").tofile(xf)
            reps = a.reps if n <= 2000 else 1

            def run_go():
                out = subprocess.run([exe, "-x", xf, "-n", str(n), "-d", str(a.dim), "-k", str(a.k),
                                      "-reps", str(reps)] + (["-exact"] if a.exact else []), check=True, capture_output=True, text=True)
                return json.loads(out.stdout)

            go = run_go()
            best, G, joins = math.inf, None, None
            for _ in range(reps):
                t0 = time.perf_counter()
                G, joins = peers.knn_geodesic(X, k=a.k)
                best = min(best, time.perf_counter() - t0)
            go2 = run_go()  # again after the peer: the machine may be shared
            go_s = min(go["go_s"], go2["go_s"])
            psum = math.fsum(squareform(G, checks=False))
            rel = abs(psum - go["sum"]) / psum
            print(json.dumps({"N": n, "dim": a.dim, "k": a.k, "peer_s": round(best, 4),
                              "go_s": round(go_s, 4), "ratio": round(go_s / best, 4),
                              "target": 0.25, "joins_go": go["joins"], "joins_peer": int(joins),
                              "sum_rel_diff": rel, "same": rel < 1e-9 and go["joins"] == joins,
                              "exact": a.exact, "gomaxprocs": go["gomaxprocs"], "cpus": os.cpu_count()}), flush=True)


if __name__ == "__main__":
    main()
