#!/usr/bin/python3
"""Held-out check of the landmark pipelines' --proba and --decision, end to
end through the command line, on data sets Arbor's tests do not contain:
scikit-learn's bundled breast_cancer (569 x 30, 2 classes) and digits
(1797 x 64, 10 classes), written as a new user's file would come: tab-
separated, an ID column, the class as a name ("malignant", "seven"), its
column in the middle, every 97th feature cell empty; the held-out file
comma-separated with its columns in another order and the classes given.

For each set (training rows i % 4 != 0, held-out rows i % 4 == 0):

  arbor classify --data train.tsv --label class --id sample --impute mean
      --landmarks M --kernel rbf:G --learner svm --C C --proba --decision
      --test test.csv --save-model lm.arbor --out fit.csv
  arbor features --model lm.arbor --data train.tsv --out Ztrain.csv
  arbor features --model lm.arbor --data test.csv  --out Ztest.csv

  svm  LIBSVM on the features: svm_train with svm-train -b 1 -t 0 -c C's
       settings in this process (bench/peers/libsvm_mem.py: glibc's rand()
       in its default state, as a fresh svm-train), then
       svm_predict_probability and svm_predict_values with the model in
       memory, beside classify's p_CLASS and d_A_B of the training and the
       held-out rows; also svm-train -b 1 -t 0 -c C and svm-predict -b 1 as
       programs (their model file keeps 8 digits and svm-predict prints
       probabilities to 6: a looser check of the same numbers).
  knn  the same with --learner knn --k 5: KNeighborsClassifier(5,
       algorithm="brute").fit(Ztrain, y).predict_proba on Ztrain and Ztest.
  linsvm --learner linsvm --decision --tol 1e-10 --max-iter 1000000:
       LinearSVC(C, tol=1e-10, max_iter=1000000).decision_function (both
       LIBLINEAR's dual coordinate descent, solved far enough that the
       unique optimum decides the digits compared).

Run: /usr/bin/python3 bench/proba/landmark_heldout.py [ARBOR] (from any
directory; ARBOR: an arbor binary, default: go build into a temporary
directory). Prints max |dp| and max |dd| per data set and learner.

  --fixture DIR  writes the committed fixture of cmd/arbor's
                 TestLandmarkHeldout instead: the digits 0-4 (901 rows;
                 rows i % 8 == 0 for training, i % 8 == 4 held out), M = 40,
                 as digits_lm_train.tsv and digits_lm_test.csv, and
                 digits_lm_ref.json with LIBSVM's (-t 0, its own sums) and
                 scikit-learn's numbers on the features arbor features
                 wrote.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import sklearn
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import libsvm_mem  # noqa: E402

args = sys.argv[1:]
fixture = None
if "--fixture" in args:
    k = args.index("--fixture")
    fixture = args[k + 1]
    del args[k:k + 2]
tmp = tempfile.mkdtemp()
arbor = args[0] if args else os.path.join(tmp, "arbor")
if not args:
    subprocess.run(["go", "build", "-o", arbor, "./cmd/arbor"], check=True, cwd=ROOT)

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def cell(v, i, j):
    """A feature cell: every 97th cell (over rows and columns) empty."""
    return "" if (i * 31 + j) % 97 == 0 else repr(float(v))


def write_train(path, X, names, y, ids):
    """Tab-separated: sample, the first half of the features, class, the rest."""
    h = X.shape[1] // 2
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(["sample"] + names[:h] + ["class"] + names[h:])
        for i, r in zip(ids, range(len(X))):
            row = [cell(v, r, j) for j, v in enumerate(X[r])]
            w.writerow([i] + row[:h] + [y[r]] + row[h:])


def write_test(path, X, names, y, ids):
    """Comma-separated, the features in reverse order, then class and sample."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names[::-1] + ["class", "sample"])
        for i, r in zip(ids, range(len(X))):
            row = [cell(v, r, j) for j, v in enumerate(X[r])]
            w.writerow(row[::-1] + [y[r], i])


def run(*a):
    subprocess.run([arbor, *a], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def features(path):
    """ID column and the features arbor features wrote."""
    rows = read_csv(path)
    assert rows[0][:2] == ["row", "sample"], rows[0][:3]
    return [r[1] for r in rows[1:]], np.array([[float(v) for v in r[2:]] for r in rows[1:]])


def outputs(path):
    """classify's p_CLASS and d_A_B columns: (names, data rows, test rows)."""
    rows = read_csv(path)
    head = rows[0]
    cols = [j for j, h in enumerate(head) if h.startswith("p_") or h.startswith("d_")]
    val = lambda r: [float(r[j]) if r[j] else np.nan for j in cols]  # noqa: E731
    data = np.array([val(r) for r in rows[1:] if r[0] == "data"])
    test = np.array([val(r) for r in rows[1:] if r[0] == "test"])
    ids = ([r[2] for r in rows[1:] if r[0] == "data"], [r[2] for r in rows[1:] if r[0] == "test"])
    return [head[j] for j in cols], data, test, ids


def libsvm_columns(m, names, code):
    """LIBSVM's probabilities and decision values of every row of Z as
    classify's columns names (p_CLASS, d_A_B: f > 0 for A)."""
    labels = m.labels()
    pos = {c: k for k, c in enumerate(labels)}
    pair = {}
    k = 0
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            pair[(labels[a], labels[b])] = (k, 1.0)
            pair[(labels[b], labels[a])] = (k, -1.0)
            k += 1

    def rows(Z):
        out = []
        for z in Z:
            p, d = m.predict_probability(z), m.predict_values(z)  # precomputed: z[0] stands for the serial number
            r = []
            for n in names:
                if n.startswith("p_"):
                    r.append(p[pos[code[n[2:]]]])
                else:
                    a, b = n[2:].split("_")  # class names without "_" here
                    j, s = pair[(code[a], code[b])]
                    r.append(s * d[j])
            out.append(r)
        return np.array(out)
    return rows


def dot4(P, Q):
    """P Q^T summed as Arbor's linear kernel sums (internal/vec.Dot: four
    running sums over the entries j % 4, then (s0 + s1) + (s2 + s3))
    where LIBSVM sums the products in order."""
    n, r = P.shape
    s = np.zeros((4, n, Q.shape[0]))
    for b in range(0, r - r % 4, 4):
        for k in range(4):
            s[k] += np.outer(P[:, b + k], Q[:, b + k])
    for j in range(r - r % 4, r):
        s[0] += np.outer(P[:, j], Q[:, j])
    return (s[0] + s[1]) + (s[2] + s[3])


def svm_programs(Ztr, ytr, Zte, C, names, code):
    """svm-train -b 1 -t 0 -c C and svm-predict -b 1 as programs: the
    held-out rows' probabilities as classify's p_ columns."""
    tr, te, mo, pr = (os.path.join(tmp, n) for n in ("z.train", "z.test", "z.model", "z.pred"))
    for path, Z, y in ((tr, Ztr, ytr), (te, Zte, [0] * len(Zte))):
        with open(path, "w") as f:
            for z, c in zip(Z, y):
                f.write(str(c) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(z)) + "\n")
    subprocess.run(["svm-train", "-q", "-b", "1", "-t", "0", "-c", repr(C), tr, mo], check=True)
    subprocess.run(["svm-predict", "-b", "1", te, mo, pr], check=True, stdout=subprocess.DEVNULL)
    rows = [l.split() for l in open(pr)]
    order = [int(v) for v in rows[0][1:]]
    P = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
    return np.array([[P[i, order.index(code[n[2:]])] for n in names if n.startswith("p_")] for i in range(len(P))])


def maxdiff(a, b):
    if a.shape != b.shape:
        return float("inf")
    return float(np.abs(a - b).max())


def check(name, X, y, names, classes, M, gamma, C, ids):
    """Runs classify and features on the set and returns the references
    and the max differences."""
    tr = [i for i in range(len(y)) if i % 4]
    te = [i for i in range(len(y)) if i % 4 == 0]
    if fixture:
        tr = [i for i in range(len(y)) if i % 8 == 0]
        te = [i for i in range(len(y)) if i % 8 == 4]
    cls = [classes[c] for c in y]
    d = fixture or tmp
    train, test = os.path.join(d, name + "_train.tsv"), os.path.join(d, name + "_test.csv")
    write_train(train, X[tr], names, [cls[i] for i in tr], [ids[i] for i in tr])
    write_test(test, X[te], names, [cls[i] for i in te], [ids[i] for i in te])
    lm, fit = os.path.join(tmp, "lm.arbor"), os.path.join(tmp, "fit.csv")
    ztr, zte = os.path.join(tmp, "ztr.csv"), os.path.join(tmp, "zte.csv")
    common = ["--data", train, "--label", "class", "--id", "sample", "--impute", "mean", "--landmarks", str(M),
              "--kernel", "rbf:%r" % gamma, "--test", test, "--save-model", lm, "--out", fit, "--quiet"]
    ref, diffs = {}, {}
    runs = [("svm", ["--C", repr(C), "--proba", "--decision"]), ("knn", ["--k", "5", "--proba"])]
    if not fixture:
        runs.append(("linsvm", ["--C", repr(C), "--decision", "--tol", "1e-10", "--max-iter", "1000000"]))
    for learner, extra in runs:
        run("classify", *common, "--learner", learner, *extra)
        run("features", "--model", lm, "--data", train, "--out", ztr, "--quiet")
        run("features", "--model", lm, "--data", test, "--out", zte, "--quiet")
        cols, D, T, (dids, tids) = outputs(fit)
        idtr, Ztr = features(ztr)
        idte, Zte = features(zte)
        assert idtr == dids and idte == tids, "IDs of the features and of classify's rows differ"
        code = {c: k for k, c in enumerate(classes)}
        ytr = [code[cls[i]] for i in tr]
        if learner == "svm":
            m = libsvm_mem.train(Ztr, ytr, libsvm_mem.LINEAR, C)
            rows = libsvm_columns(m, cols, code)
            RD, RT = rows(Ztr), rows(Zte)
            P = [j for j, n in enumerate(cols) if n.startswith("p_")]
            Dc = [j for j, n in enumerate(cols) if n.startswith("d_")]
            # The same SVM on the linear kernel of the features as Arbor
            # sums it (-t 4, a precomputed kernel; z[0] of each row is the
            # place of its serial number).
            K = dot4(Ztr, Ztr)
            pre = libsvm_columns(libsvm_mem.train(K, ytr, libsvm_mem.PRECOMPUTED, C), cols, code)
            pad = lambda A: np.hstack([np.zeros((len(A), 1)), A])  # noqa: E731
            PD, PT = pre(pad(K)), pre(pad(dot4(Zte, Ztr)))
            diffs[learner] = {"p training": maxdiff(D[:, P], RD[:, P]), "p held-out": maxdiff(T[:, P], RT[:, P]),
                              "d training": maxdiff(D[:, Dc], RD[:, Dc]), "d held-out": maxdiff(T[:, Dc], RT[:, Dc]),
                              "p held-out, svm-predict -b 1": maxdiff(T[:, P], svm_programs(Ztr, ytr, Zte, C, cols, code)),
                              "p training, -t 4 on Arbor's sums": maxdiff(D[:, P], PD[:, P]),
                              "p held-out, -t 4 on Arbor's sums": maxdiff(T[:, P], PT[:, P])}
        elif learner == "linsvm":
            # LIBLINEAR's dual coordinate descent in scikit-learn, to a
            # tolerance tight enough that the unique optimum, not the
            # visiting order, decides the digits compared.
            lin = LinearSVC(C=C, tol=1e-10, max_iter=1000000, random_state=0).fit(Ztr, ytr)
            inv = {k: c for c, k in code.items()}
            names_ = [inv[k] for k in lin.classes_]

            def dec(Z):
                f = lin.decision_function(Z)
                out = []
                for n in cols:  # d_A (one-vs-rest) or d_A_B (two classes, f > 0 for A)
                    a = n[2:].split("_")[0]
                    out.append(f * (1 if a == names_[1] else -1) if f.ndim == 1 else f[:, names_.index(a)])
                return np.array(out).T
            RD, RT = dec(Ztr), dec(Zte)
            diffs[learner] = {"d training": maxdiff(D, RD), "d held-out": maxdiff(T, RT),
                              "held-out labels agreeing (share)": float(np.mean(np.argmax(T, 1) == np.argmax(RT, 1))) if T.shape[1] > 1 else 1.0}
        else:
            knn = KNeighborsClassifier(n_neighbors=5, algorithm="brute").fit(Ztr, ytr)
            order = [code[n[2:]] for n in cols]
            RD, RT = knn.predict_proba(Ztr)[:, order], knn.predict_proba(Zte)[:, order]
            diffs[learner] = {"p training": maxdiff(D, RD), "p held-out": maxdiff(T, RT)}
        ref[learner] = {"columns": cols, "training": RD.tolist(), "heldout": RT.tolist()}
        labels = [r[3] for r in read_csv(fit)[1:] if r[0] == "test"]
        acc = np.mean([lab == cls[i] for lab, i in zip(labels, te)])
        print("%-14s %-4s M=%d rbf:%g: %d training rows, %d held out (held-out accuracy %.4f); max |Δ|: %s" % (
            name, learner, M, gamma, len(tr), len(te), acc,
            ", ".join("%s %.3g" % kv for kv in diffs[learner].items())))
    return ref


bc = load_breast_cancer()
dg = load_digits()
sets = [("breast_cancer", bc.data, bc.target, list(bc.feature_names), list(bc.target_names), 100, 0.03, 1.0, "bc%03d"),
        ("digits", dg.data, dg.target, list(dg.feature_names), WORDS, 300, 0.015, 1.0, "img%04d")]
if fixture:
    five = dg.target < 5
    sets = [("digits_lm", dg.data[five], dg.target[five], list(dg.feature_names), WORDS[:5], 40, 0.015, 1.0, "img%04d")]
for name, X, y, names, classes, M, gamma, C, idf in sets:
    ref = check(name, X, y, names, classes, M, gamma, C, [idf % i for i in range(len(y))])
    if fixture:
        ref.update({"made_by": "bench/proba/landmark_heldout.py --fixture", "scikit-learn": sklearn.__version__,
                    "libsvm": "libsvm.so.3 (Debian libsvm3)", "M": M, "gamma": gamma, "C": C, "k": 5})
        with open(os.path.join(fixture, name + "_ref.json"), "w") as f:
            json.dump(ref, f)
            f.write("\n")
