#!/usr/bin/python3
"""Ward (or centroid, median; or complete, average, weighted) linkage of N
points without the N x N matrix,
beside the matrix path and SciPy, whole processes run one after the other in
one run.

  arbor low-memory   arbor cluster --linkage METHOD --max-memory 1G
                     (the 3.2 GB matrix does not fit: hclust.FromPointsLowMemory;
                     complete/average/weighted: hclust.ExactCells + FromPointsCells)
  arbor matrix       arbor cluster --linkage METHOD --max-memory 16G (FromPoints,
                     SciPy bit-exact, 8N^2 bytes)
  scipy              a python3 process: np.loadtxt + scipy.cluster.hierarchy
                     linkage(X, METHOD) (ward: = ward(X) = linkage(pdist(X), 'ward'))

Every arbor run reads the CSV and cuts 26 clusters (--cophenetic=false, as
SciPy's ward computes no cophenetic correlation; one more low-memory run with
the cophenetic correlation). Times and peak RSS from /usr/bin/time (wall,
user+sys CPU, max RSS). Agreement: ARI of the 26-cluster cuts against
SciPy's (fcluster maxclust 26), the within-cluster sum of squares of that
cut (Ward's objective), the largest relative difference of the sorted merge
heights and the share of linkage rows equal to SciPy's. The letter features
are integers, so equal distances abound and the tree depends on how ties
are broken, which rounding decides (the matrix path repeats SciPy's
arithmetic, the low-memory path computes from centroids): the same is then
measured on the letter points plus uniform noise in [0, 1e-6) (seed 0),
which breaks the ties, and SciPy's tie sensitivity is shown as the ARI
between SciPy's cuts of the two inputs.

Data: the UCI letter features (20,000 x 16, integer 0..15), made by
  Rscript bench/lmacc/export.R /tmp/lmacc      (R mlbench LetterRecognition)
Debian python3 (/usr/bin/python3): SciPy 1.10.1, NumPy 1.24.2, scikit-learn 1.2.1.
Run from the repository root:
  /usr/bin/python3 bench/wardvec/measure.py [/tmp/lmacc/letter.csv] [reps] [ward|centroid|median|complete|average|weighted]
"""
import os, subprocess, sys, tempfile
import numpy as np
from scipy.cluster.hierarchy import fcluster
from sklearn.metrics import adjusted_rand_score

src = sys.argv[1] if len(sys.argv) > 1 else '/tmp/lmacc/letter.csv'
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1
method = sys.argv[3] if len(sys.argv) > 3 else 'ward'
d = tempfile.mkdtemp()
X0 = np.loadtxt(src, delimiter=',', skiprows=1, usecols=range(16))
Xj = X0 + np.random.default_rng(0).uniform(0, 1e-6, size=X0.shape)
paths = {}
for name, A in [('letter', X0), ('letter+1e-6 noise', Xj)]:
    paths[name] = os.path.join(d, name.replace(' ', '_').replace('+', '') + '.csv')
    np.savetxt(paths[name], A, delimiter=',', header=','.join('f%d' % i for i in range(16)), comments='', fmt='%.17g')
path = paths['letter']
X = X0
arbor = os.path.join(d, 'arbor')
subprocess.run(['go', 'build', '-o', arbor, './cmd/arbor'], check=True)
print('uptime:', subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip())
print('N = %d, d = %d, %s linkage' % (X.shape + (method,)))


def wss(A, lab):
    return sum(((A[lab == c] - A[lab == c].mean(axis=0))**2).sum() for c in np.unique(lab))


scipy_py = os.path.join(d, 'ward.py')
with open(scipy_py, 'w') as f:
    f.write('import sys, numpy as np\nfrom scipy.cluster.hierarchy import linkage\n'
            'X = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)\n'
            'np.save(sys.argv[2], linkage(X, sys.argv[3]))\n')


def timed(cmd):
    r = subprocess.run(['/usr/bin/time', '-f', 'TIME %e %U %S %M'] + cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('%s failed:\n%s' % (cmd, r.stderr))
    line = [l for l in r.stderr.splitlines() if l.startswith('TIME ')][-1].split()
    wall, user, sys_, rss = float(line[1]), float(line[2]), float(line[3]), int(line[4])
    return wall, user + sys_, rss / 1024, r


def arbor_run(tag, budget, coph=False, path=path):
    z = os.path.join(d, tag + '-Z.csv')
    lab = os.path.join(d, tag + '-lab.csv')
    cmd = [arbor, 'cluster', '--data', path, '--linkage', method, '--clusters', '26', '--quiet',
           '--max-memory', budget, '--linkage-out', z, '--out', lab]
    if not coph:
        cmd.append('--cophenetic=false')
    w, c, m, r = timed(cmd)
    return w, c, m, np.loadtxt(z, delimiter=','), np.loadtxt(lab, delimiter=',', skiprows=1, usecols=1), r


cuts = {}
for name, p in paths.items():
    A = X0 if name == 'letter' else Xj
    zs = os.path.join(d, 'scipy.npy')
    timed(['/usr/bin/python3', scipy_py, p, zs, method])
    Zs = np.load(zs)
    ls = fcluster(Zs, 26, 'maxclust')
    cuts[name] = ls
    print('%s: scipy k=26 within-cluster SS %.6g' % (name, wss(A, ls)))
    for tag, budget in [('arbor low-memory', '1G'), ('arbor matrix', '16G')]:
        w, c, m, Z, lab, r = arbor_run('agree', budget, path=p)
        low = 'memory instead' in r.stderr
        hs = np.sort(Z[:, 2]); hz = np.sort(Zs[:, 2])
        pos = hz > 0
        rel = np.max(np.abs(hs - hz)[pos] / hz[pos]) if pos.any() else 0.0
        same = np.mean(np.all(Z == Zs, axis=1))
        merges = np.mean(np.all(Z[:, [0, 1, 3]] == Zs[:, [0, 1, 3]], axis=1))
        print('  %-18s low-memory path: %-5s ARI vs scipy (k=26) %.4f, within-cluster SS %.6g; sorted heights max rel diff %.2e; rows with scipy\'s (A, B, size) %.1f%%, identical to the bit %.1f%%'
              % (tag, low, adjusted_rand_score(ls, lab), wss(A, lab.astype(int)), rel, 100 * merges, 100 * same))
print('scipy tie sensitivity: ARI(scipy on letter, scipy on letter+1e-6 noise) at k=26 = %.4f'
      % adjusted_rand_score(cuts['letter'], cuts['letter+1e-6 noise']))

rows = {}
for rep in range(reps):
    zs = os.path.join(d, 'scipy.npy')
    rows.setdefault('scipy linkage(X)', []).append(timed(['/usr/bin/python3', scipy_py, path, zs, method])[:3])
    for tag, budget, coph in [('arbor low-memory', '1G', False), ('arbor matrix', '16G', False),
                              ('arbor low-memory + cophenetic', '1G', True)]:
        w, c, m, Z, lab, r = arbor_run(tag.replace(' ', '_').replace('+', ''), budget, coph)
        rows.setdefault(tag, []).append((w, c, m))

base = min(r[1] for r in rows['scipy linkage(X)'])
basew = min(r[0] for r in rows['scipy linkage(X)'])
print('\n%-30s %9s %9s %9s %12s %12s' % ('process (best of %d)' % reps, 'wall s', 'CPU s', 'peak MiB', 'wall/scipy', 'CPU/scipy'))
for tag, rs in rows.items():
    w = min(r[0] for r in rs); c = min(r[1] for r in rs); m = max(r[2] for r in rs)
    print('%-30s %9.2f %9.2f %9.0f %12.2f %12.2f' % (tag, w, c, m, w / basew, c / base))
print('uptime:', subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip())
