#!/usr/bin/python3
"""Reference leaf labels of truncated dendrograms (SciPy truncate_mode='lastp').

Made with: /usr/bin/python3 figure/testdata/gen_lastp.py > figure/testdata/lastp.json
Tools: Python 3.11, NumPy 1.24, SciPy 1.10 (Debian 12 packages).
Data: the embedded iris set (dataset/data/iris.csv.gz, the same rows as
dataset/data/iris.csv.gz), features only, no scaling.
"""
import gzip, json, sys
import numpy as np
import scipy
from scipy.cluster.hierarchy import linkage, dendrogram

with gzip.open(sys.path[0] + "/../../dataset/data/iris.csv.gz", "rt") as f:
    next(f)
    X = np.array([[float(v) for v in line.strip().split(",")[:4]] for line in f])
out = {"scipy": scipy.__version__, "numpy": np.__version__, "cases": []}
for method in ["average", "single", "complete", "ward"]:
    Z = linkage(X, method)
    for p in [2, 5, 12, 30]:
        d = dendrogram(Z, truncate_mode="lastp", p=p, no_plot=True)
        out["cases"].append({"method": method, "p": p, "ivl": d["ivl"]})
json.dump(out, sys.stdout, indent=0)
