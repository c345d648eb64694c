#!/usr/bin/python3
"""Fixtures for package distance: run with /usr/bin/python3 (numpy, scipy).

    cd distance/testdata && /usr/bin/python3 gen_fixtures.py

Writes fixtures.json: data sets X (and B for cdist) with scipy's pdist
(euclidean, sqeuclidean) and cdist (euclidean) results.
"""
import json

import numpy as np
import scipy
from scipy.spatial.distance import cdist, pdist


def main():
    rs = np.random.RandomState(3)
    cases = []
    for name, X, B in [
        ("uniform_40x5", rs.rand(40, 5), rs.rand(7, 5)),
        ("wide_scale_25x13", rs.randn(25, 13) * 10.0 ** rs.randint(-3, 4, size=13), rs.randn(4, 13)),
        ("dups_12x2", np.repeat(rs.rand(4, 2), 3, axis=0), rs.rand(3, 2)),
        ("one_col_9x1", rs.randn(9, 1), rs.randn(2, 1)),
    ]:
        cases.append({"name": name, "X": X.tolist(), "B": B.tolist(),
                      "euclidean": pdist(X).tolist(),
                      "sqeuclidean": pdist(X, "sqeuclidean").tolist(),
                      "cdist": cdist(X, B).tolist()})
    meta = {"generator": "distance/testdata/gen_fixtures.py", "numpy": np.__version__,
            "scipy": scipy.__version__}
    with open("fixtures.json", "w") as fh:
        json.dump({"meta": meta, "cases": cases}, fh)


if __name__ == "__main__":
    main()
