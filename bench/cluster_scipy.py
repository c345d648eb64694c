#!/usr/bin/python3
# Times `arbor cluster --linkage average` at N = 8,000 (d = 10,
# standard normal, seed 0), CSV read included, beside SciPy's
# linkage(pdist(X), 'average') alone; whole arbor process, wall and CPU
# (user + sys) time, two alternating runs. Debian python3-scipy 1.10.
# Run from the repository root: /usr/bin/python3 bench/cluster_scipy.py
import os, resource, subprocess, tempfile, time
import numpy as np
from scipy.cluster.hierarchy import linkage
from scipy.spatial.distance import pdist

d = tempfile.mkdtemp()
path = os.path.join(d, 'x.csv')
X = np.random.default_rng(0).normal(size=(8000, 10))
np.savetxt(path, X, delimiter=',', header=','.join('f%d' % i for i in range(10)), comments='', fmt='%.6f')
arbor = os.path.join(d, 'arbor')
subprocess.run(['go', 'build', '-o', arbor, './cmd/arbor'], check=True)
X = np.loadtxt(path, delimiter=',', skiprows=1)
for rep in range(2):
    c = time.process_time(); t = time.time()
    linkage(pdist(X), 'average')
    ts, cs = time.time() - t, time.process_time() - c
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.time()
    subprocess.run([arbor, 'cluster', '--data', path, '--linkage', 'average', '--clusters', '5', '--quiet'],
                   check=True, capture_output=True)
    ta = time.time() - t; r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    ca = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    print('scipy linkage(pdist): %.2f s wall, %.2f s CPU | arbor cluster incl. CSV: %.2f s wall, %.2f s CPU | ratio %.2f wall, %.2f CPU'
          % (ts, cs, ta, ca, ta / ts, ca / cs))
