#!/usr/bin/python3
"""Compare Arbor's `eval` with the reference pipeline's `ssl` mode split by split.

    /usr/bin/python3 bench/compare_ssl.py --csv dataset/data/two_moons.csv.gz --per-class 3 --seeds 0 1 2 --scale none
    /usr/bin/python3 bench/compare_ssl.py --csv dataset/data/usps.csv.gz --splits FILE --scale none

Runs `peers.py ssl` and `arbor eval --json` with the same protocol and the
same methods (SVM and kNN k=1..5 on linear, rbf, HCK single/complete/average
on Euclidean and 7-NN graph distances, ISOMAP; label propagation rbf/knn),
then prints every (method, split) whose accuracy differs, and a summary.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.environ.get("ARBOR_PEERS", os.path.join(ROOT, "bench", "peers", "peers.py"))
KERNELS = "linear,rbf,hck:single,hck:complete,hck:average,hckg:single,hckg:complete,hckg:average,isomap"


def lines(cmd):
    sys.stderr.write("$ " + " ".join(cmd) + "\n")
    t0 = time.time()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, cwd=ROOT).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")], time.time() - t0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--csv", required=True)
    p.add_argument("--per-class", type=int, default=10)
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    p.add_argument("--splits")
    p.add_argument("--scale", default="std")
    p.add_argument("--C", type=float, default=1.0)
    p.add_argument("--no-lp", action="store_true")
    a = p.parse_args()
    csv = os.path.abspath(a.csv)
    subprocess.run(["go", "build", "-o", os.path.join(HERE, "arbor.bin"), "./cmd/arbor"], check=True, cwd=ROOT)
    peer_cmd = [sys.executable, PEERS, "ssl", "--csv", csv, "--scale", a.scale, "--C", str(a.C)]
    arbor_cmd = [os.path.join(HERE, "arbor.bin"), "eval", "--data", csv, "--scale", a.scale, "--json", "--quiet"]
    if a.splits:
        peer_cmd += ["--splits", os.path.abspath(a.splits)]
        arbor_cmd += ["--splits", os.path.abspath(a.splits)]
    else:
        seeds = sorted(a.seeds)
        if seeds != list(range(seeds[0], seeds[0] + len(seeds))):
            sys.exit("--seeds must be consecutive for arbor eval (--seed S --repeats R)")
        peer_cmd += ["--per-class", str(a.per_class), "--seeds", *map(str, seeds)]
        arbor_cmd += ["--labeled-per-class", str(a.per_class), "--seed", str(seeds[0]), "--repeats", str(len(seeds))]
    if a.no_lp:
        peer_cmd += ["--no-lp"]
    peer, tp = lines(peer_cmd)
    # arbor refuses flags a learner does not read: --C and --kernel go with svm,knn only;
    # points no label reaches get the first class, as scikit-learn gives them
    arb_svm, t1 = lines(arbor_cmd + ["--learner", "svm,knn", "--k", "1-5", "--C", str(a.C), "--kernel", KERNELS])
    lp = ["--learner", "lp", "--unreachable", "first"]
    arb_lp, t2 = ([], 0) if a.no_lp else lines(arbor_cmd + lp + ["--affinity", "rbf:20"])
    arb_lp2, t3 = ([], 0) if a.no_lp else lines(arbor_cmd + lp + ["--affinity", "knn:7"])
    ref = {}
    for r in peer:
        if "acc" in r:
            ref[(r["method"], int(r["split"].split("=")[1]) - (0 if a.splits else a.seeds[0] * 0))] = r["acc"]
    if not a.splits:  # peers tag splits by seed; arbor by index
        base = sorted(a.seeds)[0]
        ref = {(m, s - base): v for (m, s), v in ref.items()}
    got = {(r["method"], r["split"]): r["accuracy"] for r in arb_svm + arb_lp + arb_lp2}
    same = diff = missing = 0
    for key, v in sorted(ref.items()):
        if key not in got:
            missing += 1
            continue
        if abs(got[key] - v) < 5e-7:
            same += 1
        else:
            diff += 1
            print("DIFF %-24s split %d: peer %.4f%%  arbor %.4f%%" % (key[0], key[1], 100 * v, 100 * got[key]))
    print("%d identical, %d different, %d peer results without an Arbor counterpart" % (same, diff, missing))
    print("wall time: peer %.1fs, arbor %.1fs (ratio %.2f)" % (tp, t1 + t2 + t3, (t1 + t2 + t3) / tp))


if __name__ == "__main__":
    main()
