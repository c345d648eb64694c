#!/usr/bin/python3
"""Time the kernel treelets authors' code on one toy set (RBF, full sample).

Tools: Debian /usr/bin/python3 3.11, numpy 1.24.2, scikit-learn 1.2.1; the
authors' code from github.com/hedixia/kernel_treelets commit bf942a1
(nothing patched; run from its checkout on sys.path; its _rbf hands an
np.matrix to scikit-learn, which no longer accepts one, so this script
wraps sklearn's euclidean_distances at run time to convert it).
Run:  /usr/bin/python3 bench/treelets/peer_time.py /tmp/kt-src DATA.csv GAMMA K
Reads the CSV (f1..fd,label), z-scores the features (as arbor --scale std),
fits kernel_treelets_clustering(kernel="rbf", sigma=sqrt(1/(2*GAMMA)),
number_of_clusters=K, max_sample=n) -- the full sample, no SVM -- and prints
one JSON line with the wall time of the whole script (imports included) and
of the fit alone, and the ARI of its labels against the CSV's.
"""
import time

T0 = time.time()
import json  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

warnings.filterwarnings("ignore")
src, path, gamma, k = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, src)
import sklearn.metrics.pairwise as _pw  # noqa: E402

# run-time shim: their _rbf passes an np.matrix, which scikit-learn >= 1.0
# rejects; convert it (the computation is unchanged)
_ed = _pw.euclidean_distances
_pw.euclidean_distances = lambda X, *a, **k: _ed(np.asarray(X), *a, **k)
from kernel_treelets_clustering import kernel_treelets_clustering  # noqa: E402
from sklearn.metrics import adjusted_rand_score  # noqa: E402

D = np.loadtxt(path, delimiter=",", skiprows=1)
X, y = D[:, :-1], D[:, -1].astype(int)
X = (X - X.mean(0)) / X.std(0)
t1 = time.time()
ktc = kernel_treelets_clustering("rbf", number_of_clusters=k, max_sample=X.shape[0], sigma=np.sqrt(1 / (2 * gamma)))
ktc.fit(X)
t2 = time.time()
print(json.dumps({"peer": "kernel_treelets", "n": X.shape[0], "fit_s": t2 - t1, "total_s": t2 - T0,
                  "ari": adjusted_rand_score(y, ktc.labels_)}))
