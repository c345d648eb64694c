#!/usr/bin/python3
# Times `arbor classify --kernel rbf --learner svm` on 4,000
# labelled + 1,000 unlabelled points (d = 10, uniform, labels x1 + x2 > 1
# with 10 % flipped) beside scikit-learn's SVC fit + predict (read, z-score,
# fit on the labelled rows, predict the unlabelled), whole processes, one
# run each, C = 1 and 100. Debian python3-sklearn 1.2.1.
# Run from the repository root: /usr/bin/python3 bench/classify_svm.py [repeats]
# With repeats > 1 each side runs that many times, alternating, and the
# fastest of each is compared. Besides the wall-clock ratio (the check) it
# prints the CPU-time ratio (user + system: scikit-learn's in-process
# seconds, arbor's whole child process) and the load average, since timings
# on a shared machine are inflated by the other processes.
import os, resource, subprocess, sys, tempfile, time
import numpy as np
from sklearn.svm import SVC

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 1
d = tempfile.mkdtemp()
rng = np.random.default_rng(0)
X = rng.uniform(size=(5000, 10)); y = ((X[:, 0] + X[:, 1]) > 1).astype(int)
flip = rng.random(5000) < 0.1; y[flip] = 1 - y[flip]
path = os.path.join(d, 'd.csv')
with open(path, 'w') as f:
    f.write(','.join('f%d' % i for i in range(10)) + ',label\n')
    for i in range(5000):
        f.write(','.join('%.6f' % v for v in X[i]) + ',' + (str(y[i]) if i < 4000 else '') + '\n')
arbor = os.path.join(d, 'arbor')
subprocess.run(['go', 'build', '-o', arbor, './cmd/arbor'], check=True)


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


print('load average before: %.2f %.2f %.2f' % os.getloadavg())
for C in (1, 100):
    ts = ta = cs = ca = float('inf')
    for _ in range(reps):
        t, c = time.time(), cpu_self()
        D = np.genfromtxt(path, delimiter=',', skip_header=1, filling_values=-1)
        Xs = (D[:, :10] - D[:, :10].mean(0)) / D[:, :10].std(0)
        SVC(C=C, kernel='rbf', gamma='scale').fit(Xs[:4000], D[:4000, 10]).predict(Xs[4000:])
        ts, cs = min(ts, time.time() - t), min(cs, cpu_self() - c)
        t, c = time.time(), cpu_children()
        subprocess.run([arbor, 'classify', '--data', path, '--kernel', 'rbf', '--learner', 'svm', '--C', str(C),
                        '--out', os.path.join(d, 'p.csv'), '--quiet'], check=True, capture_output=True)
        ta, ca = min(ta, time.time() - t), min(ca, cpu_children() - c)
    print('C=%g: sklearn SVC %.2f s, arbor classify %.2f s, ratio %.2f (CPU %.2f s vs %.2f s, ratio %.2f)'
          % (C, ts, ta, ta / ts, cs, ca, ca / cs))
print('load average after: %.2f %.2f %.2f' % os.getloadavg())
