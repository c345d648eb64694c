#!/usr/bin/env bash
# Landmark vs exact accuracy on a satellite-like stand-in (6,435 × 36, 6
# classes; scikit-learn make_classification, seed 0): 5,435 training rows
# with 50 labelled per class, 1,000 labelled test rows. For each kernel ×
# learner: arbor classify exact and with --landmarks 2000 (kmeans, seed 0),
# accuracy on the test rows (--test).
# Run from the repository root: bash bench/landmarks/accuracy.sh
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" <<'PY'
import sys, numpy as np
from sklearn.datasets import make_classification
d = sys.argv[1]
X, y = make_classification(n_samples=6435, n_features=36, n_informative=12, n_redundant=12,
                           n_classes=6, n_clusters_per_class=2, class_sep=1.5, random_state=0)
rng = np.random.default_rng(0)
idx = rng.permutation(6435); tr, te = idx[:5435], idx[5435:]
lab = np.full(5435, '', dtype=object)
for c in range(6):
    sel = [i for i, r in enumerate(tr) if y[r] == c][:50]
    lab[sel] = str(c)
hdr = ','.join('f%d' % j for j in range(36)) + ',label\n'
with open(d + '/train.csv', 'w') as f:
    f.write(hdr)
    for i, r in enumerate(tr): f.write(','.join('%.6g' % v for v in X[r]) + ',' + lab[i] + '\n')
with open(d + '/test.csv', 'w') as f:
    f.write(hdr)
    for r in te: f.write(','.join('%.6g' % v for v in X[r]) + ',' + str(y[r]) + '\n')
PY
go build -o "$dir/arbor" ./cmd/arbor
printf '%-22s %-8s %8s %8s\n' kernel learner exact M=2000
for k in rbf:scale hck:average hckg:average:knn:7 isomap; do
  for l in svm knn; do
    kk=""; [ $l = knn ] && kk="--k 5"   # arbor refuses flags a learner does not read
    ex=$("$dir/arbor" classify --data "$dir/train.csv" --test "$dir/test.csv" --kernel $k --learner $l $kk --quiet --out "$dir/p.csv" 2>/dev/null | sed -n 's/^test .*accuracy \([0-9.]*\)%.*/\1/p')
    lm=$("$dir/arbor" classify --data "$dir/train.csv" --test "$dir/test.csv" --kernel $k --learner $l $kk --landmarks 2000 --quiet --out "$dir/p.csv" 2>/dev/null | sed -n 's/^test .*accuracy \([0-9.]*\)%.*/\1/p')
    printf '%-22s %-8s %8s %8s\n' $k $l "${ex:-fail}" "${lm:-fail}"
  done
done
lm=$("$dir/arbor" classify --data "$dir/train.csv" --test "$dir/test.csv" --learner lp --landmarks 2000 --quiet --out "$dir/p.csv" 2>/dev/null | sed -n 's/^test .*accuracy \([0-9.]*\)%.*/\1/p')
printf '%-22s %-8s %8s %8s\n' "(anchor graph)" lp "n/a" "${lm:-fail}"   # exact lp is transductive: no --test
