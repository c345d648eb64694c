#!/usr/bin/python3
# Fixtures for internal/neighbors: exact kNN by scikit-learn's brute-force
# search (Debian python3-sklearn 1.2.1, numpy 1.24).
# Run: /usr/bin/python3 gen_fixtures.py > knn.json
# Continuous Gaussian data (no exact ties, so sklearn's order is unique).
import json
import numpy as np
import sklearn
from sklearn.neighbors import NearestNeighbors

rng = np.random.default_rng(12)
cases = []
for name, n, d, m, k in [("d3", 600, 3, 40, 7), ("d10", 500, 10, 40, 5), ("d30", 300, 30, 30, 6)]:
    X = rng.normal(size=(n, d))
    X[: n // 2] += 3.0  # two clusters
    Q = rng.normal(size=(m, d)) * 1.5
    nn = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(X)
    dq, iq = nn.kneighbors(Q)
    ds, is_ = nn.kneighbors()  # X=None: each point excluded
    cases.append({
        "name": name, "n": n, "d": d, "k": k,
        "x": X.ravel().tolist(), "q": Q.ravel().tolist(),
        "query_idx": iq.ravel().tolist(), "query_dist": dq.ravel().tolist(),
        "self_idx": is_.ravel().tolist(), "self_dist": ds.ravel().tolist(),
    })
print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}))
