#!/usr/bin/python3
# Fixtures for linsvm: scikit-learn's LinearSVC (LIBLINEAR's dual coordinate
# descent inside), Debian python3-sklearn 1.2.1.
# Run: /usr/bin/python3 gen_fixtures.py > linearsvc.json
# LinearSVC(loss=..., dual=True, C=..., tol=1e-8, max_iter=100000,
# fit_intercept=True, intercept_scaling=1): a tight tolerance so that the
# solution is the optimum to ~1e-6 and comparable with any solver order.
import json
import numpy as np
import sklearn
from sklearn.svm import LinearSVC

rng = np.random.default_rng(5)
cases = []
for name, n, d, k in [("binary", 120, 4, 2), ("three", 150, 5, 3)]:
    centres = rng.normal(size=(k, d)) * 1.5
    y = rng.integers(0, k, size=n)
    X = centres[y] + rng.normal(size=(n, d))
    Xt = rng.normal(size=(40, d)) * 2
    for loss, lname in [("squared_hinge", "l2"), ("hinge", "l1")]:
        for C in (0.1, 10.0):
            m = LinearSVC(loss=loss, dual=True, C=C, tol=1e-8, max_iter=100000, random_state=0).fit(X, y)
            cases.append({
                "name": name, "loss": lname, "C": C, "n": n, "d": d,
                "x": X.ravel().tolist(), "y": y.tolist(), "xt": Xt.ravel().tolist(),
                "coef": m.coef_.tolist(), "intercept": m.intercept_.tolist(),
                "decision": np.atleast_2d(m.decision_function(Xt).T).T.ravel().tolist(),
                "pred": m.predict(Xt).tolist(),
            })
print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}))
