#!/usr/bin/python3
"""Peak memory and results of --float32 at N = 20,000, beside the float64 runs.

Runs whole `arbor` processes under /usr/bin/time -v, one after the other
(never side by side: each peak is the process's own), with and without
--float32:
  1. arbor cluster --linkage average --clusters 26 on letter (20,000 × 16)
  2. arbor classify --kernel hck:average --learner svm on letter with
     50 labelled rows per class from UCI's training part (the first 16,000
     rows; PCG-free: numpy RandomState(0) per class), the other 18,700 rows
     unlabelled and scored against their true class.
and reports peak RSS, CPU (user+sys) and wall seconds, the machine load, and
how the float32 results differ (linkage rows, cut labels, cophenetic
correlation; predictions and accuracy).

Usage (from the repository root; letter.csv from bench/lmacc/export.R):
  go build -o /tmp/arbor ./cmd/arbor
  Rscript bench/lmacc/export.R /tmp/lmacc
  /usr/bin/python3 bench/float32/measure.py /tmp/arbor /tmp/lmacc/letter.csv /tmp/f32m [cluster|classify|both]
Tools: Python 3 with NumPy (Debian python3-numpy), GNU time (/usr/bin/time).
"""
import csv
import os
import re
import subprocess
import sys

import numpy as np

arbor, letter, out = sys.argv[1], sys.argv[2], sys.argv[3]
which = sys.argv[4] if len(sys.argv) > 4 else "both"
os.makedirs(out, exist_ok=True)


def run(args, tag):
    with open(os.path.join(out, tag + ".time"), "w") as ferr:
        load = open("/proc/loadavg").read().split()[0]
        p = subprocess.run(["/usr/bin/time", "-v", "nice", "-n", "10", arbor] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ferr.write(p.stderr)
    if p.returncode != 0:
        sys.exit(f"{tag}: exit {p.returncode}\n{p.stderr[-2000:]}")
    t = p.stderr
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024 / 1024
    cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + \
        float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
    w = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", t).group(1).split(":")
    wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(w)))
    print(f"{tag:28s} peak RSS {rss:6.2f} GiB  CPU {cpu:7.1f} s  wall {wall:7.1f} s  (load {load} at start)", flush=True)
    return p.stdout


def rows(path):
    with open(path) as f:
        return [r for r in csv.reader(f)]


if which in ("cluster", "both"):
    res = {}
    for f32 in (False, True):
        tag = "cluster average" + (" --float32" if f32 else "")
        sfx = "32" if f32 else "64"
        args = ["cluster", "--data", letter, "--linkage", "average", "--clusters", "26", "--quiet",
                "--linkage-out", os.path.join(out, f"z{sfx}.csv"), "--out", os.path.join(out, f"l{sfx}.csv")]
        if f32:
            args.append("--float32")
        res[sfx] = run(args, tag)
    z64, z32 = rows(os.path.join(out, "z64.csv")), rows(os.path.join(out, "z32.csv"))
    diff = sum(1 for a, b in zip(z64, z32) if (a[0], a[1], a[3]) != (b[0], b[1], b[3]))
    rel = max(abs(float(a[2]) - float(b[2])) / float(a[2]) for a, b in zip(z64, z32) if float(a[2]) > 0)
    l64, l32 = rows(os.path.join(out, "l64.csv")), rows(os.path.join(out, "l32.csv"))
    ldiff = sum(1 for a, b in zip(l64, l32) if a != b)
    print(f"linkage rows differing {diff} of {len(z64)}; max relative height difference {rel:.3g} "
          f"({rel * 2**24:.1f}·2^-24); cut rows labelled otherwise {ldiff} of {len(l64) - 1}")
    for sfx in ("64", "32"):
        for line in res[sfx].splitlines():
            if line.startswith(("heights", "vs labels")):
                print(f"  float{sfx}: {line}")

if which in ("classify", "both"):
    X = np.genfromtxt(letter, delimiter=",", skip_header=1)
    y = X[:, -1].astype(int)
    lab = []
    for c in range(26):
        idx = np.flatnonzero(y[:16000] == c)
        lab.extend(np.random.RandomState(0).choice(idx, 50, replace=False))
    lab = set(int(i) for i in lab)
    ssl = os.path.join(out, "letter_ssl.csv")
    with open(letter) as f, open(ssl, "w") as g:
        r = csv.reader(f)
        w = csv.writer(g)
        w.writerow(next(r))
        for i, row in enumerate(r):
            w.writerow(row[:-1] + [row[-1] if i in lab else ""])
    acc = {}
    pred = {}
    for f32 in (False, True):
        tag = "classify hck:average svm" + (" --float32" if f32 else "")
        sfx = "32" if f32 else "64"
        p = os.path.join(out, f"p{sfx}.csv")
        args = ["classify", "--data", ssl, "--kernel", "hck:average", "--learner", "svm", "--quiet", "--out", p]
        if f32:
            args.append("--float32")
        run(args, tag)
        pr = rows(p)
        hdr = pr[0]
        li, ri = hdr.index("label"), hdr.index("row")
        pred[sfx] = {int(r[ri]): r[li] for r in pr[1:]}
        scored = [i for i in range(len(y)) if i not in lab]
        acc[sfx] = 100 * np.mean([pred[sfx][i] == str(y[i]) for i in scored])
    d = sum(1 for i in pred["64"] if pred["64"][i] != pred["32"][i])
    print(f"accuracy on the {len(y) - len(lab)} unlabelled rows: float64 {acc['64']:.2f} %, float32 {acc['32']:.2f} %; "
          f"{d} predictions differ")
