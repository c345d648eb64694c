#!/usr/bin/python3
"""Iterative label propagation (rbf:20) on mlbench's Vehicle beside
scikit-learn's LabelPropagation, whole processes in one run.

    /usr/bin/python3 bench/lp/vehicle_time.py [--seed 1] [--reps 2] [--arbor BIN] [--old BIN]

Data: mlbench's Vehicle (846 rows, 18 features, 4 classes), written by R
(`Rscript`, package mlbench; Debian: r-base-core r-cran-mlbench); 10
labelled rows per class drawn as the peers draw them (numpy
RandomState(seed), classes in sorted order, rng.choice per class), the
other labels left empty. Arbor: `arbor classify --learner lp --affinity
rbf:20` (features z-scored over all rows, 1000 iterations at most, Σ|ΔF| <
1e-3), the build of the work tree unless --arbor; --old BIN runs a second
build beside it. Peer: a Python process that reads the same CSV, z-scores it
and runs LabelPropagation(kernel="rbf", gamma=20, max_iter=1000). The
processes alternate --reps times; it prints wall and CPU seconds (user +
system) of each, the ratios, and how many labels differ from the peer's on
the rows Arbor labels (rows no labelled row reaches are left unlabelled by
Arbor; the peer's label there is an artefact of 0/0).
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PEER = r"""
import csv, sys
import numpy as np
from sklearn.semi_supervised import LabelPropagation
rows = list(csv.reader(open(sys.argv[1])))
X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
lab = [r[-1] for r in rows[1:]]
names = sorted(set(v for v in lab if v))
y = np.array([names.index(v) if v else -1 for v in lab])
sd = X.std(0)
sd[sd == 0] = 1
X = (X - X.mean(0)) / sd
lp = LabelPropagation(kernel="rbf", gamma=20, max_iter=1000).fit(X, y)
with open(sys.argv[2], "w") as f:
    for v in lp.transduction_:
        f.write(names[v] + "\n")
"""


def timed(cmd):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", tf.name] + cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT)
        if p.returncode != 0:
            sys.exit(f"{cmd[0]} failed:\n{p.stdout}\n{p.stderr}")
        wall, user, sys_ = map(float, open(tf.name).read().split()[-3:])
    return wall, user + sys_


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--arbor", help="arbor binary (default: go build the work tree)")
    ap.add_argument("--old", help="a second arbor binary to time beside it")
    a = ap.parse_args()
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        full = os.path.join(tmp, "vehicle_all.csv")
        subprocess.run(["Rscript", "-e", f'library(mlbench); data(Vehicle); write.csv(Vehicle, "{full}", row.names=FALSE, quote=FALSE)'],
                       check=True, stdout=subprocess.DEVNULL)
        rows = [l.split(",") for l in open(full).read().splitlines()]
        lab = [r[-1] for r in rows[1:]]
        names = sorted(set(lab))
        yi = np.array([names.index(v) for v in lab])
        rng = np.random.RandomState(a.seed)
        L = set()
        for c in range(len(names)):
            idx = np.flatnonzero(yi == c)
            L.update(int(i) for i in rng.choice(idx, min(10, len(idx) - 1), replace=False))
        data = os.path.join(tmp, "vehicle.csv")
        with open(data, "w") as f:
            f.write(",".join(rows[0]) + "\n")
            for i, r in enumerate(rows[1:]):
                f.write(",".join(r[:-1]) + "," + (r[-1] if i in L else "") + "\n")
        exe = a.arbor
        if not exe:
            exe = os.path.join(tmp, "arbor")
            subprocess.run(["go", "build", "-o", exe, "./cmd/arbor"], check=True, cwd=ROOT)
        peer = os.path.join(tmp, "peer.py")
        with open(peer, "w") as f:
            f.write(PEER)
        runs = [("arbor", exe)] + ([("arbor old", a.old)] if a.old else [])
        times = {name: [] for name, _ in runs + [("peer", None)]}
        preds = {}
        for _ in range(a.reps):
            for name, bin_ in runs:
                out = os.path.join(tmp, name.replace(" ", "_") + ".csv")
                times[name].append(timed([bin_, "classify", "--data", data, "--label", "Class", "--learner", "lp",
                                          "--affinity", "rbf:20", "--scale", "std", "--out", out, "--quiet"]))
                preds[name] = [l.split(",")[2] for l in open(out).read().splitlines()[1:]]
            out = os.path.join(tmp, "peer.txt")
            times["peer"].append(timed(["/usr/bin/python3", peer, data, out]))
            preds["peer"] = open(out).read().splitlines()
    print(f"Vehicle (846 rows), seed {a.seed}: 10 labelled per class, lp rbf:20, z-scored; {a.reps} runs each, alternated")
    print(f"{'':12s} {'wall s':>8s} {'cpu s':>8s}  (sums over runs)")
    tot = {k: (sum(w for w, _ in v), sum(c for _, c in v)) for k, v in times.items()}
    for k, (w, c) in tot.items():
        print(f"{k:12s} {w:8.2f} {c:8.2f}")
    for name, _ in runs:
        w, c = tot[name]
        pw, pc = tot["peer"]
        reach = [i for i, v in enumerate(preds[name]) if v != "?"]
        diff = sum(preds[name][i] != preds["peer"][i] for i in reach)
        print(f"{name}/peer: wall {w / pw:.3f}, cpu {c / pc:.3f}; labels differing from the peer's on the {len(reach)} rows it labels: {diff}")
    if a.old:
        print(f"old/new: wall {tot['arbor old'][0] / tot['arbor'][0]:.2f}, cpu {tot['arbor old'][1] / tot['arbor'][1]:.2f}; "
              f"labels identical: {preds['arbor'] == preds['arbor old']}")


if __name__ == "__main__":
    main()
