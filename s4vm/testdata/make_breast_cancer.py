"""Writes breast_cancer.csv.gz: scikit-learn's load_breast_cancer (569 × 30,
2 classes: 0 = malignant, 1 = benign), a set not among ../../../shared/data,
for the whole-run comparison with RSSL's S4VM (rssl_accuracy.R).

Made with Debian's python3-sklearn (scikit-learn 1.2.1) by
    /usr/bin/python3 make_breast_cancer.py
"""
import gzip

import sklearn
from sklearn.datasets import load_breast_cancer

d = load_breast_cancer()
with gzip.open("breast_cancer.csv.gz", "wt", newline="") as f:
    f.write(",".join(f"f{j + 1}" for j in range(d.data.shape[1])) + ",label\n")
    for row, lab in zip(d.data, d.target):
        f.write(",".join(repr(float(v)) for v in row) + f",{int(lab)}\n")
print("scikit-learn", sklearn.__version__, d.data.shape)
