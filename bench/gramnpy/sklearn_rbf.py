#!/usr/bin/python3
"""The peer of `arbor kernel --kernel rbf:GAMMA --out K.npy` for bench/gramnpy:
read the CSV (header line, no label), K = sklearn.metrics.pairwise.rbf_kernel(X,
gamma=GAMMA), np.save(K). Usage: sklearn_rbf.py DATA.csv OUT.npy GAMMA.
Prints one JSON object with the seconds of each step inside the process
(imports excluded) and the library versions.
"""
import json
import sys
import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.metrics.pairwise import rbf_kernel  # noqa: E402

t1 = time.perf_counter()
X = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
t2 = time.perf_counter()
K = rbf_kernel(X, gamma=float(sys.argv[3]))
t3 = time.perf_counter()
np.save(sys.argv[2], K)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "read": t2 - t1, "rbf_kernel": t3 - t2, "save": t4 - t3,
                  "in_process": t4 - t1, "numpy": np.__version__, "sklearn": sklearn.__version__}))
