#!/usr/bin/python3
"""Fixtures for package metrics: scikit-learn / SciPy reference values.

Run: /usr/bin/python3 gen_fixtures.py   (writes fixtures.json beside it)
"""
import json

import numpy as np
import scipy
import sklearn
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import (accuracy_score, adjusted_rand_score, confusion_matrix,
                             normalized_mutual_info_score, precision_recall_fscore_support)
from sklearn.metrics.cluster import pair_confusion_matrix


def rprecision(scores, rel):
    """R-precision with expected credit for the block tied at rank R."""
    r = int(rel.sum())
    order = np.argsort(-scores, kind="stable")
    s, t = scores[order], scores[order][r - 1]
    lo, hi = int((s > t).sum()), int((s >= t).sum())
    hits = rel[order][:lo].sum() + rel[order][lo:hi].sum() * (r - lo) / (hi - lo)
    return float(hits / r)


def main():
    rs = np.random.RandomState(7)
    cases = []
    for n, ct, cp in ((60, 3, 3), (200, 4, 6), (150, 5, 2), (31, 2, 2), (500, 10, 12)):
        yt = rs.randint(0, ct, n)
        # predictions correlated with truth
        yp = np.where(rs.rand(n) < 0.6, yt % cp, rs.randint(0, cp, n))
        C = max(ct, cp)
        p, r, f, s = precision_recall_fscore_support(yt, yp, labels=range(C), zero_division=0)
        (tn, fp), (fn, tp) = pair_confusion_matrix(yt, yp) // 2
        nz = np.unique(yp)
        cm = np.array([[np.sum((yp == a) & (yt == b)) for b in np.unique(yt)] for a in nz])
        ri, ci = linear_sum_assignment(-cm)
        miscl = int(n - cm[ri, ci].sum())
        cases.append(dict(y_true=yt.tolist(), y_pred=yp.tolist(), classes=C,
                          accuracy=accuracy_score(yt, yp),
                          confusion=confusion_matrix(yt, yp, labels=range(C)).tolist(),
                          precision=p.tolist(), recall=r.tolist(), f1=f.tolist(), support=s.tolist(),
                          ari=adjusted_rand_score(yt, yp), nmi=normalized_mutual_info_score(yt, yp),
                          pairs=[int(tp), int(fp), int(fn), int(tn)], misclassified=miscl))
    # assignment problems (rectangular), scipy optimum
    assign = []
    for m, M in ((4, 4), (5, 8), (7, 7), (3, 10), (12, 15)):
        cost = np.round(rs.rand(m, M) * 100, 1)
        if m == 7:
            cost = np.floor(cost / 20)  # many ties
        ri, ci = linear_sum_assignment(cost)
        assign.append(dict(cost=cost.tolist(), optimum=float(cost[ri, ci].sum())))
    # breakeven: multi-label scores with ties
    bep = []
    for n, c in ((40, 3), (100, 5)):
        S = np.round(rs.rand(n, c), 1)  # coarse: many ties
        R = rs.rand(n, c) < 0.3
        for i in range(n):
            if not R[i].any():
                R[i, rs.randint(c)] = True
        per = [rprecision(S[:, k], R[:, k]) for k in range(c)]
        bep.append(dict(scores=S.tolist(), relevant=[np.flatnonzero(R[i]).tolist() for i in range(n)],
                        per_class=per, macro=float(np.mean(per)),
                        micro=rprecision(S.ravel(), R.ravel())))
    out = dict(versions=dict(numpy=np.__version__, scipy=scipy.__version__, sklearn=sklearn.__version__),
               cases=cases, assign=assign, breakeven=bep)
    with open("fixtures.json", "w") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
