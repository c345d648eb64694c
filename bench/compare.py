#!/usr/bin/python3
"""Time Arbor and the reference pipeline side by side, in one run, on the same data.

    /usr/bin/python3 bench/compare.py [--sizes 2000 8000] [--dim 10] [--ops linkage,knn7]

Runs `peers.py timing` (SciPy / scikit-learn / LIBSVM) and bench/blocks (same
data: NumPy RandomState(0) points, same op names) one after the other and
prints, for every operation and size, both times and the ratio Arbor / peer
(below 1 = Arbor faster). Needs Debian's python3-scipy and python3-sklearn
(`apt-get install -y python3-sklearn python3-scipy`) and Go.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.environ.get("ARBOR_PEERS", os.path.join(ROOT, "bench", "peers", "peers.py"))


def run_lines(cmd, env=None):
    sys.stderr.write("$ " + " ".join(cmd) + "\n")
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000])
    p.add_argument("--dim", type=int, default=10)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--ops", default="", help="only ops containing one of these comma-separated words")
    p.add_argument("--skip-svm", action="store_true", help="skip SVM training (slow in the peer at 8000)")
    a = p.parse_args()
    if not os.path.exists(PEERS):
        sys.exit("peers.py not found at %s (set ARBOR_PEERS)" % PEERS)
    blocks = os.path.join(HERE, "blocks.bin")
    subprocess.run(["go", "build", "-o", blocks, "./bench/blocks"], check=True, cwd=ROOT)
    sizes = [str(n) for n in a.sizes]
    svm_max = "0" if a.skip_svm else str(max(a.sizes))
    peer = run_lines([sys.executable, PEERS, "timing", "--sizes", *sizes, "--dim", str(a.dim),
                      "--reps", str(a.reps), "--eigh-max", "0"])
    arbor = run_lines([blocks, "-sizes", ",".join(sizes),
                       "-dim", str(a.dim), "-reps", str(a.reps), "-svm-max", svm_max] +
                      (["-ops", a.ops] if a.ops else []))
    want = [w for w in a.ops.split(",") if w]
    pt = {(r["N"], r["op"]): r["time_s"] for r in peer}
    print("| N | operation | peer s | Arbor s | ratio |")
    print("|---:|---|---:|---:|---:|")
    for r in arbor:
        key = (r["N"], r["op"])
        if key not in pt or (want and not any(w in r["op"] for w in want)):
            continue
        ratio = r["time_s"] / pt[key] if pt[key] > 0 else float("nan")
        print("| %d | %s | %.4f | %.4f | %.2f |" % (r["N"], r["op"], pt[key], r["time_s"], ratio))


if __name__ == "__main__":
    main()
