#!/usr/bin/python3
# Times `arbor cluster --linkage METHOD` at N = 8,000 (d = 10, standard
# normal, seed 0), CSV read included, with its default outputs (the
# cophenetic correlation among them), beside SciPy's
# linkage(pdist(X), METHOD) alone; whole arbor process, wall and CPU
# (user + sys) time, runs alternating. Debian python3-scipy 1.10.
# Run from the repository root:
#   /usr/bin/python3 bench/cluster_scipy.py [--linkage average,complete,single,ward] [--reps 2] [--arbor BIN]
# Prints one line per run and, per method, the minimum and median ratios.
import argparse, os, resource, statistics, subprocess, tempfile, time
import numpy as np
from scipy.cluster.hierarchy import linkage
from scipy.spatial.distance import pdist

ap = argparse.ArgumentParser()
ap.add_argument('--linkage', default='average', help='comma-separated methods')
ap.add_argument('--reps', type=int, default=2, help='alternating runs per method')
ap.add_argument('--n', type=int, default=8000)
ap.add_argument('--arbor', help='an arbor binary (default: go build ./cmd/arbor)')
args = ap.parse_args()

d = tempfile.mkdtemp()
path = os.path.join(d, 'x.csv')
X = np.random.default_rng(0).normal(size=(args.n, 10))
np.savetxt(path, X, delimiter=',', header=','.join('f%d' % i for i in range(10)), comments='', fmt='%.6f')
arbor = args.arbor
if arbor is None:
    arbor = os.path.join(d, 'arbor')
    subprocess.run(['go', 'build', '-o', arbor, './cmd/arbor'], check=True)
X = np.loadtxt(path, delimiter=',', skiprows=1)
for method in args.linkage.split(','):
    wall, cpu = [], []
    for rep in range(args.reps):
        c = time.process_time(); t = time.time()
        linkage(pdist(X), method)
        ts, cs = time.time() - t, time.process_time() - c
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.time()
        subprocess.run([arbor, 'cluster', '--data', path, '--linkage', method, '--clusters', '5', '--quiet'],
                       check=True, capture_output=True)
        ta = time.time() - t; r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        ca = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        wall.append(ta / ts); cpu.append(ca / cs)
        print('%s: scipy linkage(pdist): %.2f s wall, %.2f s CPU | arbor cluster incl. CSV: %.2f s wall, %.2f s CPU | ratio %.2f wall, %.2f CPU'
              % (method, ts, cs, ta, ca, ta / ts, ca / cs), flush=True)
    print('%s: %d runs: ratio wall min %.2f median %.2f, CPU min %.2f median %.2f'
          % (method, args.reps, min(wall), statistics.median(wall), min(cpu), statistics.median(cpu)), flush=True)
