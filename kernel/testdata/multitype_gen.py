#!/usr/bin/python3
"""NumPy reference for kernel.MultiType (multitype_test.go).

Multi-type cluster kernel (Chapelle, Weston & Schoelkopf 2002, §3; paper 002 §4.1.2):
  W_ij = exp(-gamma ||x_i - x_j||^2), W_ii = 1 (or 0 with zero_diag)
  D = diag(W 1), L = D^-1/2 W D^-1/2 = U diag(lam) U^T   (numpy.linalg.eigh)
  Lt = U diag(phi(lam)) U^T with
      step:    phi = 1 if lam >= cut else 0
      linstep: phi = lam if lam >= cut else 0
      poly:    phi = lam^t
      randomwalk: eq. (3) literally, Lt = D^1/2 (D^-1 W)^t D^-1/2 (t integer)
  K = Dt^1/2 Lt Dt^1/2, Dt = diag(1 / diag(Lt))

Data: 120 points in 5-D, three Gaussian blobs (numpy RandomState(0)), stored in
the fixture. Writes multitype_ref.json.gz: {"X": rows, "cases": [{name, gamma,
transfer, cut, t, zero_diag, "K": upper triangle row by row}]}.
Run: /usr/bin/python3 multitype_gen.py
"""
import gzip
import json

import numpy as np


def multitype(X, gamma, transfer, cut=0.0, t=1.0, zero_diag=False):
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    W = np.exp(-gamma * sq)
    if zero_diag:
        np.fill_diagonal(W, 0.0)
    d = W.sum(1)
    if transfer == "randomwalk":
        P = W / d[:, None]
        Lt = np.sqrt(d)[:, None] * np.linalg.matrix_power(P, int(t)) / np.sqrt(d)[None, :]
        Lt = (Lt + Lt.T) / 2
    else:
        L = W / np.sqrt(d)[:, None] / np.sqrt(d)[None, :]
        lam, U = np.linalg.eigh(L)
        if transfer == "step":
            phi = np.where(lam >= cut, 1.0, 0.0)
        elif transfer == "linstep":
            phi = np.where(lam >= cut, lam, 0.0)
        elif transfer == "poly":
            if float(t).is_integer():
                phi = lam ** int(t)
            else:
                phi = np.maximum(lam, 0.0) ** t
        else:
            raise ValueError(transfer)
        if transfer in ("step", "linstep"):
            gap = np.abs(lam - cut).min()
            assert gap > 1e-4, "cut %g too close to an eigenvalue (%g)" % (cut, gap)
        Lt = (U * phi) @ U.T
    s = 1.0 / np.sqrt(np.diag(Lt))
    return Lt * s[:, None] * s[None, :]


CASES = [
    dict(name="linstep", gamma=0.5, transfer="linstep", cut=0.1),
    dict(name="step", gamma=0.5, transfer="step", cut=0.05),
    dict(name="linstep_zero", gamma=0.5, transfer="linstep", cut=0.1, zero_diag=True),
    dict(name="poly2", gamma=0.5, transfer="poly", t=2),
    dict(name="poly3_zero", gamma=0.5, transfer="poly", t=3, zero_diag=True),
    dict(name="poly1.5", gamma=0.2, transfer="poly", t=1.5),
    dict(name="randomwalk5", gamma=0.5, transfer="randomwalk", t=5),
]


def main():
    rng = np.random.RandomState(0)
    centers = rng.uniform(-3, 3, size=(3, 5))
    X = np.vstack([c + rng.normal(size=(40, 5)) for c in centers])
    out = {"numpy": np.__version__, "X": X.tolist(), "cases": []}
    n = len(X)
    iu = np.triu_indices(n)
    for c in CASES:
        args = {k: v for k, v in c.items() if k != "name"}
        K = multitype(X, **args)
        rec = dict(c)
        rec.setdefault("cut", 0.0)
        rec.setdefault("t", 0.0)
        rec.setdefault("zero_diag", False)
        rec["K"] = [float("%.15e" % v) for v in K[iu]]
        out["cases"].append(rec)
    with gzip.open("multitype_ref.json.gz", "wt") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
