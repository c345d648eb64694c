#!/usr/bin/python3
# Peer side of bench/knngraph -sklearn: scikit-learn's exact kNN
# (NearestNeighbors, algorithm='kd_tree', leaf_size=30 (its default),
# n_jobs=2 (the machine's cores)) on the points bench/knngraph wrote, every
# point queried against all with itself excluded, timed in-process (fit +
# kneighbors). Writes the neighbour indices (int32, N×k) next to the data.
#
#   /usr/bin/python3 bench/knngraph/sklearn_knn.py DATA.f64 N D K
#
# Tested with scikit-learn 1.2.1, NumPy 1.24 (Debian bookworm python3-sklearn).
import sys, time, resource
import numpy as np
import sklearn
from sklearn.neighbors import NearestNeighbors

path, n, d, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
X = np.fromfile(path, dtype='<f8').reshape(n, d)
c0 = time.process_time(); w0 = time.time()
nn = NearestNeighbors(n_neighbors=k, algorithm='kd_tree', leaf_size=30, n_jobs=2).fit(X)
idx = nn.kneighbors(return_distance=False)  # X=None: each point excluded from its own list
w1 = time.time(); c1 = time.process_time()
# process_time misses the joblib workers' time when n_jobs > 1: add children.
ch = resource.getrusage(resource.RUSAGE_CHILDREN)
idx.astype('<i4').tofile(path + '.sk.i32')
print('scikit-learn %s kd_tree (fit + kneighbors, n_jobs=2): wall %.2f s, cpu %.2f s' % (sklearn.__version__, w1 - w0, c1 - c0 + ch.ru_utime + ch.ru_stime))
print('RESULT %.6f %.6f' % (w1 - w0, c1 - c0 + ch.ru_utime + ch.ru_stime))
