#!/usr/bin/python3
"""Writes proba_libsvm.json: LIBSVM's own Platt probabilities (svm-train -b 1,
svm-predict -b 1, Debian's libsvm-tools; the version is recorded) for the
Go test of Classifier{Probability: true, Shuffle: ShuffleLIBSVM}.

Run: /usr/bin/python3 svm/testdata/gen_proba.py (from any directory)
Needs svm-train, svm-predict and libsvm.so.3 (apt-get install libsvm-tools).

Cases (data from ../../dataset/data, features standardised with the
training rows' mean and population standard deviation):
  wine3     wine, rows i % 3 != 0 train, the others test; classes appear in
            sorted order; RBF gamma 0.1, C 1.
  iris3perm iris permuted (a fixed permutation) so that the classes first
            appear as 2, 0, 1 (LIBSVM's pair order differs from the
            sorted one); rows 0..99 train, 100..149 test; RBF gamma 0.5, C 2.
  moons2    two_moons rotated to start at its first class-1 row, rows 0..199 train, 200..399
            test; RBF gamma 1, C 1, weight of class 0 = 2 (-w0 2).
  iris3perm_pre  iris3perm's rows 0..74 train, 100..139 test, with the RBF
            kernel computed here and given to LIBSVM precomputed (-t 4), so
            that both programs read the same kernel values.
Each case records the training and test points, the model's label order,
probA, probB and rho (printed by svm-train with 17 digits), svm-predict's
labels and probabilities (printed with %g), and the same probabilities to
full precision from svm_predict_probability in libsvm.so.3 (ctypes,
bench/peers/libsvm_mem.py) on the model trained by svm_train in this
process with svm-train's settings (its header checked equal to svm-train's file to the last digit): a
model read back from a file has its support vectors to 8 digits, which
moves the probabilities by about 1e-8. train_gamma is the gamma svm-train
ran with: it keeps -g in single precision (0.1 runs as
0.10000000149011612; gamma in the model file), which moves the Platt
parameters by about 1e-8 from those of gamma itself.

Also writes proba_heldout.json, the same for data sets the other tests do
not contain (needs python3-sklearn for scikit-learn's bundled copies):
  breast_cancer  UCI breast cancer (Wisconsin diagnostic), 569 x 30, two
            classes; rows i % 4 != 0 train, the others test; standardised
            as above; RBF gamma 0.03, C 1.
  digits16  UCI optical digits, every 3rd row of scikit-learn's 1797 (599
            x 64, ten classes), features / 16 (exact, not standardised);
            rows i % 4 != 0 train, the others test; RBF gamma 0.05, C 2.
"""
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "peers"))
import libsvm_mem  # noqa: E402
DATA = os.path.join(HERE, "..", "..", "dataset", "data")


def read(name):
    with gzip.open(os.path.join(DATA, name), "rt") as f:
        lines = f.read().split()
    rows = [l.split(",") for l in lines[1:]]
    return [[float(v) for v in r[:-1]] for r in rows], [int(r[-1]) for r in rows]


def standardise(X, Xt):
    d = len(X[0])
    mean = [sum(r[j] for r in X) / len(X) for j in range(d)]
    sd = [(sum((r[j] - mean[j]) ** 2 for r in X) / len(X)) ** 0.5 for j in range(d)]
    f = lambda R: [[(r[j] - mean[j]) / (sd[j] if sd[j] > 0 else 1) for j in range(d)] for r in R]
    return f(X), f(Xt)


def write_svm(path, X, y):
    with open(path, "w") as f:
        for r, c in zip(X, y):
            f.write(str(c) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(r)) + "\n")


def write_pre(path, K, y):
    with open(path, "w") as f:
        for i, (r, c) in enumerate(zip(K, y)):
            f.write("%d 0:%d" % (c, i + 1) + "".join(" %d:%.17g" % (j + 1, v) for j, v in enumerate(r)) + "\n")


def rbf(A, B, gamma):
    return [[math.exp(-gamma * sum((u - v) ** 2 for u, v in zip(a, b))) for b in B] for a in A]


def case(name, X, y, Xt, yt, gamma, C, weights, precomputed=False, scale=True):
    if scale:
        X, Xt = standardise(X, Xt)
    K = Kt = None
    if precomputed:
        K, Kt = rbf(X, X, gamma), rbf(Xt, X, gamma)
    with tempfile.TemporaryDirectory() as tmp:
        tr, te, mo, out = (os.path.join(tmp, n) for n in ("train", "test", "model", "out"))
        if precomputed:
            write_pre(tr, K, y)
            write_pre(te, Kt, yt)
            args = ["svm-train", "-q", "-b", "1", "-t", "4", "-c", repr(C)]
        else:
            write_svm(tr, X, y)
            write_svm(te, Xt, yt)
            args = ["svm-train", "-q", "-b", "1", "-t", "2", "-g", repr(gamma), "-c", repr(C)]
        for lab, w in weights.items():
            args += ["-w%d" % lab, repr(w)]
        subprocess.run(args + [tr, mo], check=True)
        subprocess.run(["svm-predict", "-b", "1", te, mo, out], check=True, capture_output=True)
        model = libsvm_mem.header(mo)
        # svm-train keeps -g in single precision (gamma 0.1 runs as
        # 0.10000000149011612, printed in the model): train in memory with
        # the gamma it ran with.
        ran_gamma = gamma if precomputed else float(model["gamma"][0])
        with open(out) as f:
            head = f.readline().split()
            pred, prob = [], []
            for line in f:
                v = line.split()
                pred.append(int(v[0]))
                prob.append([float(x) for x in v[1:]])
    kind = libsvm_mem.PRECOMPUTED if precomputed else libsvm_mem.RBF
    m = libsvm_mem.train(K if precomputed else X, y, kind, C, ran_gamma, weights)
    mem = m.header()
    for key in ("label", "probA", "probB", "rho", "nr_sv", "total_sv"):
        assert mem[key] == model[key], (name, key, mem[key], model[key])
    full = [m.predict_probability(r, i + 1 if precomputed else None) for i, r in enumerate(Kt if precomputed else Xt)]
    return {
        "name": name, "gamma": gamma, "train_gamma": ran_gamma, "C": C, "weights": {str(k): v for k, v in weights.items()},
        "X": X, "y": y, "Xt": Xt, "K": K, "Kt": Kt,
        "label": [int(v) for v in model["label"]],
        "probA": [float(v) for v in model["probA"]], "probB": [float(v) for v in model["probB"]],
        "rho": [float(v) for v in model["rho"]],
        "predict_labels": [int(v) for v in head[1:]], "predict": pred, "predict_proba": prob,
        "proba": full,
    }


def main():
    out = []
    X, y = read("wine.csv.gz")
    tr = [i for i in range(len(y)) if i % 3]
    te = [i for i in range(len(y)) if i % 3 == 0]
    out.append(case("wine3", [X[i] for i in tr], [y[i] for i in tr], [X[i] for i in te], [y[i] for i in te], 0.1, 1.0, {}))
    X, y = read("iris.csv.gz")
    perm = [(i * 61 + 107) % 150 for i in range(150)]  # 61 is prime to 150
    # classes first appear as 2, 0, 1
    X, y = [X[i] for i in perm], [y[i] for i in perm]
    assert [c for i, c in enumerate(y) if c not in y[:i]] == [2, 0, 1], y[:5]
    out.append(case("iris3perm", X[:100], y[:100], X[100:], y[100:], 0.5, 2.0, {}))
    out.append(case("iris3perm_pre", X[:75], y[:75], X[100:140], y[100:140], 0.5, 2.0, {}, precomputed=True))
    X, y = read("two_moons.csv.gz")
    first1 = y.index(1)
    X, y = X[first1:] + X[:first1], y[first1:] + y[:first1]  # rotate: class 1 first
    out.append(case("moons2", X[:200], y[:200], X[200:], y[200:], 1.0, 1.0, {0: 2.0}))
    ver = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libsvm-tools"], capture_output=True, text=True).stdout
    with open(os.path.join(HERE, "proba_libsvm.json"), "w") as f:
        json.dump({"generator": "svm/testdata/gen_proba.py, LIBSVM (libsvm-tools " + ver + ")", "cases": out}, f)
        f.write("\n")
    # Held out: data sets the other tests do not contain, from
    # scikit-learn's bundled copies (no download).
    import sklearn
    from sklearn.datasets import load_breast_cancer, load_digits
    out = []
    b = load_breast_cancer()
    X, y = b.data.tolist(), [int(v) for v in b.target]
    tr = [i for i in range(len(y)) if i % 4]
    te = [i for i in range(len(y)) if i % 4 == 0]
    out.append(case("breast_cancer", [X[i] for i in tr], [y[i] for i in tr], [X[i] for i in te], [y[i] for i in te], 0.03, 1.0, {}))
    d = load_digits()
    rows = list(range(0, len(d.target), 3))
    X, y = [[v / 16 for v in d.data[i]] for i in rows], [int(d.target[i]) for i in rows]
    tr = [i for i in range(len(y)) if i % 4]
    te = [i for i in range(len(y)) if i % 4 == 0]
    out.append(case("digits16", [X[i] for i in tr], [y[i] for i in tr], [X[i] for i in te], [y[i] for i in te], 0.05, 2.0, {}, scale=False))
    with open(os.path.join(HERE, "proba_heldout.json"), "w") as f:
        json.dump({"generator": "svm/testdata/gen_proba.py, LIBSVM (libsvm-tools " + ver + "), data from scikit-learn " + sklearn.__version__, "cases": out}, f)
        f.write("\n")


main()
