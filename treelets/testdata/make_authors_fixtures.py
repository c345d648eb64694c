#!/usr/bin/python3
"""Fixtures for the Raw rule: the kernel treelets authors' treelets.py.

Tools: Debian /usr/bin/python3 (3.11), numpy 1.24.2; the authors' code from
github.com/hedixia/kernel_treelets, commit bf942a1 (2019-06-21), file
treelets.py (imports only numpy; nothing in it is patched).
Run (from the repository root):
  git clone https://github.com/hedixia/kernel_treelets /tmp/kt-src
  /usr/bin/python3 treelets/testdata/make_authors_fixtures.py /tmp/kt-src treelets/testdata/authors

This script wraps treelets.jacobi_rotation and treelets.treelets._find at
run time to record, per level, the pair the code rotated and whether both
indices were still active when it picked them. For each case NAME it writes
  NAME_A.csv       the input kernel matrix (17 significant digits)
  NAME_levels.csv  level, k, l (the rotated rows as the code ordered them,
                   0-based), sum, diff (transform_list), c, s (as returned
                   by jacobi_rotation: rows k, l become c*k - s*l, s*k + c*l),
                   sim (exp of dendrogram_list: the raw entry A_kl that won),
                   active (1 if both k and l were active when picked),
                   rotated (0 if the code skipped the rotation because
                   A_kl + A_lk < 1e-11), rule (1 if the pick is the largest
                   entry A_ij over active pairs of the code's own matrix),
                   ties (how many active pairs share that largest entry)
  NAME_sumvec.csv  one line per level: the basis vector of the sum variable
                   after that level, replayed from the recorded rotations
  NAME_meta.csv    valid_levels: the levels before the first one where the
                   code departs from the raw rule on active indices (an
                   inactive pick, a skipped rotation, a pick that is not
                   the largest active entry: its partner cache ranks by
                   |A_ij| but the columns by A_ij, and goes stale) or where
                   the largest entry is tied (the rule does not decide);
                   first_inactive_pick: the first level where it picked an
                   index that had left the active set (0: none)
"""
import os
import sys

import numpy as np

src, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, src)
import treelets  # noqa: E402  (the authors' module)

os.makedirs(out, exist_ok=True)

rec = {}
orig_rot = treelets.jacobi_rotation


def rot(M, k, l, tol=10 ** (-11)):
    skipped = M[k, l] + M[l, k] < tol
    c, s = orig_rot(M, k, l, tol)
    rec["rot"].append((k, l, c, s, 0 if skipped else 1))
    return c, s


treelets.jacobi_rotation = rot
orig_find = treelets.treelets._find


def find(self):
    p, q = orig_find(self)
    act = self.active.copy()
    rec["active"].append(1 if (act[p] and act[q]) else 0)
    # the raw rule over active pairs, evaluated on the code's own matrix:
    # is the code's pick the unique largest active entry?
    idx = np.nonzero(act)[0]
    sub = self.M_[np.ix_(idx, idx)].copy()
    np.fill_diagonal(sub, -np.inf)
    top = sub.max()
    ties = int(np.sum(np.triu(sub == top, 1)))
    rec["rule"].append(1 if (act[p] and act[q] and self.M_[p, q] == top) else 0)
    rec["ties"].append(ties)
    return p, q


treelets.treelets._find = find


def f17(x):
    return "%.17g" % x


def run(name, A):
    n = A.shape[0]
    rec["rot"], rec["active"], rec["rule"], rec["ties"] = [], [], [], []
    t = treelets.treelets()
    t.fit(A.copy())
    with open(os.path.join(out, name + "_A.csv"), "w") as f:
        for r in A:
            f.write(",".join(f17(v) for v in r) + "\n")
    F = np.eye(n)
    valid = n - 1
    first_inactive = None
    with open(os.path.join(out, name + "_levels.csv"), "w") as f, open(os.path.join(out, name + "_sumvec.csv"), "w") as g:
        f.write("level,k,l,sum,diff,c,s,sim,active,rotated,rule,ties\n")
        for lev in range(n - 1):
            k, l, c, s, rotated = rec["rot"][lev]
            sm, df = t.transform_list[lev][0], t.transform_list[lev][1]
            act = rec["active"][lev]
            if not act and first_inactive is None:
                first_inactive = lev + 1
            if (not act or not rotated or not rec["rule"][lev] or rec["ties"][lev] > 1) and valid == n - 1:
                valid = lev
            fk, fl = F[k].copy(), F[l].copy()
            F[k], F[l] = c * fk - s * fl, s * fk + c * fl
            f.write(",".join([str(lev + 1), str(k), str(l), str(sm), str(df), f17(c), f17(s),
                              f17(np.exp(t.dendrogram_list[lev])), str(act), str(rotated),
                              str(rec["rule"][lev]), str(rec["ties"][lev])]) + "\n")
            g.write(",".join(f17(v) for v in F[sm]) + "\n")
    with open(os.path.join(out, name + "_meta.csv"), "w") as f:
        f.write("valid_levels,first_inactive_pick\n%d,%d\n" % (valid, first_inactive or 0))
    print(name, "n =", n, "levels that follow the raw rule:", valid, "; first inactive pick at level", first_inactive)


def rbf(X, gamma):
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-gamma * d2)


rng = np.random.RandomState(0)
X = np.vstack([rng.randn(10, 2), rng.randn(10, 2) + 3, rng.randn(10, 2) + [0, 4]])
run("rbf30", rbf(X, 0.5))
X = np.vstack([rng.randn(20, 2) * 0.5, rng.randn(20, 2) * 0.5 + 2, rng.randn(20, 2) * 0.5 + [2, -2]])
run("rbf60", rbf(X, 1.0))
X = rng.rand(40, 3)
run("poly40", (X @ X.T * 0.5 + 1) ** 3)
# a linear kernel of centred points (mixed-sign entries)
X = rng.randn(40, 5)
X -= X.mean(0)
run("lin40", X @ X.T + 0.5 * np.eye(40))
# random covariance matrices with mixed-sign entries (where the code's
# cached partners go stale)
for d, name in ((15, "cov15"), (30, "cov30")):
    Z = rng.randn(4 * d, d) @ rng.randn(d, d)
    run(name, np.cov(Z, rowvar=False))
