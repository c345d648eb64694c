#!/usr/bin/python3
"""S4VM on USPS beside the reference, in one run: the whole `arbor classify`
process against RSSL's S4VM through R, on the same data.

    R_LIBS=$RSSL_LIB /usr/bin/python3 bench/s4vm/usps_time.py [--split-line 1] [--scale minmax] [--rows N]

Data: the embedded USPS (1,500 rows, 241 features, 2 classes), labelled rows =
one line of the official 10-label splits (dataset/data/usps.splits10.csv.gz)
(--rows N: only those labelled rows and the first N − 10 others, in file order,
for a side-by-side run that fits in minutes: the reference takes over an hour on
all 1,500 rows),
features min–max scaled (the S4VM paper's protocol; --scale none for raw),
linear kernel, C1 = 100, C2 = 0.1, sampleTime = 100, λ = 3 (the defaults of
both). Arbor: `go build` once, then the whole `arbor classify --learner s4vm`
process (reading the CSV, scaling, the Gram matrix, S4VM, writing the
predictions) under /usr/bin/time. Reference: RSSL 0.9.7's S4VM (installed as
s4vm/testdata/rssl_fixtures.R says) under /usr/bin/time in `Rscript`, which
also reports the elapsed time of the S4VM call alone. Prints wall and CPU
seconds, the accuracy of each on the unlabelled rows, and the ratios
Arbor / RSSL (below 1 = Arbor faster).
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

R_CODE = r"""
suppressMessages(library(RSSL))
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1])
X <- as.matrix(d[, names(d) != "label"])
y <- d$label
if (a[3] == "minmax") X <- apply(X, 2, function(v) { r <- max(v) - min(v); if (r == 0) v * 0 else (v - min(v)) / r })
lab <- as.integer(strsplit(a[2], ",")[[1]]) + 1
unl <- setdiff(seq_along(y), lab)
cls <- sort(unique(y[lab]))
set.seed(1)
t0 <- proc.time()[["elapsed"]]
m <- S4VM(X[lab, ], factor(y[lab], levels = cls), X[unl, ], C1 = 100, C2 = 0.1, sample_time = 100, gamma = 0, lambda_tradeoff = 3)
secs <- proc.time()[["elapsed"]] - t0
pred <- as.integer(as.character(m@predictions))
cat(sprintf("RSSL_S4VM_CALL %.3f ACC %.6f\n", secs, mean(pred == y[unl])))
"""


def timed(cmd, env=None):
    sys.stderr.write("$ " + " ".join(cmd) + "\n")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", tf.name] + cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        if p.returncode != 0:
            sys.exit(f"{cmd[0]} failed:\n{p.stdout}\n{p.stderr}")
        wall, user, sys_ = map(float, open(tf.name).read().split()[-3:])
    return p.stdout, wall, user + sys_


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split-line", type=int, default=1)
    ap.add_argument("--scale", default="minmax", choices=["minmax", "none"])
    ap.add_argument("--rows", type=int, default=0, help="use the labelled rows and the first N-10 others (0 = all)")
    args = ap.parse_args()
    with gzip.open(os.path.join(ROOT, "dataset", "data", "usps.csv.gz"), "rt") as f:
        lines = f.read().splitlines()
    with gzip.open(os.path.join(ROOT, "dataset", "data", "usps.splits10.csv.gz"), "rt") as f:
        split = f.read().splitlines()[args.split_line - 1].strip()
    lab = {int(v) for v in split.split(",")}
    if args.rows:
        keep = sorted(lab) + [i for i in range(len(lines) - 1) if i not in lab][:max(args.rows - len(lab), 0)]
        keep.sort()
        lines = [lines[0]] + [lines[1 + i] for i in keep]
        new = {old: k for k, old in enumerate(keep)}
        lab = {new[i] for i in lab}
        split = ",".join(str(i) for i in sorted(lab))
    truth = [int(l.rsplit(",", 1)[1]) for l in lines[1:]]
    with tempfile.TemporaryDirectory() as tmp:
        full = os.path.join(tmp, "usps.csv")
        with open(full, "w") as f:
            f.write("\n".join(lines) + "\n")
        part = os.path.join(tmp, "usps_10.csv")
        with open(part, "w") as f:
            f.write(lines[0] + "\n")
            for i, l in enumerate(lines[1:]):
                f.write(l if i in lab else l.rsplit(",", 1)[0] + ",", )
                f.write("\n")
        exe = os.path.join(tmp, "arbor")
        subprocess.run(["go", "build", "-o", exe, "./cmd/arbor"], check=True, cwd=ROOT)
        pred = os.path.join(tmp, "pred.csv")
        _, aw, ac = timed([exe, "classify", "--data", part, "--learner", "s4vm", "--kernel", "linear",
                           "--scale", args.scale, "--seed", "1", "--out", pred, "--quiet"])
        rows = [l.split(",") for l in open(pred).read().splitlines()[1:]]
        right = total = 0
        for r in rows:
            if r[0] == "data" and r[-1] == "0":
                total += 1
                right += int(r[-2] == str(truth[int(r[1])]))
        aacc = right / total
        rscript = os.path.join(tmp, "s4vm.R")
        with open(rscript, "w") as f:
            f.write(R_CODE)
        out, rw, rc = timed(["Rscript", rscript, full, split, args.scale], env=os.environ)
        call = float(out.split("RSSL_S4VM_CALL")[1].split()[0])
        racc = float(out.split("ACC")[1].split()[0])
    print(f"USPS ({len(lines) - 1} rows), split line {args.split_line} ({len(lab)} labelled), scale {args.scale}, linear, C1=100 C2=0.1 samples=100 lambda=3")
    print(f"{'':22s} {'wall s':>9s} {'cpu s':>9s} {'accuracy':>9s}")
    print(f"{'arbor classify':22s} {aw:9.2f} {ac:9.2f} {aacc:9.4f}")
    print(f"{'RSSL Rscript process':22s} {rw:9.2f} {rc:9.2f} {racc:9.4f}")
    print(f"{'RSSL S4VM call':22s} {call:9.2f}")
    print(f"ratio arbor/RSSL: wall {aw / rw:.4f} (vs the S4VM call alone {aw / call:.4f}), cpu {ac / rc:.4f}")


if __name__ == "__main__":
    main()
