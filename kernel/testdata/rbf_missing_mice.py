#!/usr/bin/python3
"""Fixture for kernel.RBFMissing: the paper 004 §4.3 kernel computed with NumPy.

Tools: Debian /usr/bin/python3 3.11, numpy 1.24.2.
Run from the repository root:
    /usr/bin/python3 kernel/testdata/rbf_missing_mice.py examples/mice_protein.csv.gz \
        | gzip -n -9 > kernel/testdata/rbf_missing_mice.json.gz
Takes 48 rows of the mice protein file (the 24 rows with the most empty cells
and 24 complete rows, in file order), the 77 protein columns (MouseID and the
four label columns dropped), z-scores each column over its observed cells
of these rows (np.nanmean, np.nanstd: population standard deviation), and
computes K(u, v) = exp(-gamma * mean over the columns observed in both of
(u_i - v_i)^2) for gamma = 32 and 0.5, the paper's formula (not the authors'
exp(-gamma * MSD^2)). Writes JSON: X (rows, NaN as null), gamma, K.
"""
import csv
import gzip
import json
import sys

import numpy as np

path = sys.argv[1]
rows = list(csv.reader(gzip.open(path, "rt") if path.endswith(".gz") else open(path)))
head, body = rows[0], rows[1:]
cols = [j for j, h in enumerate(head) if h.endswith("_N")]
assert len(cols) == 77, len(cols)
X = np.array([[float(r[j]) if r[j] != "" else np.nan for j in cols] for r in body])
miss = np.isnan(X).sum(1)
most = np.argsort(-miss, kind="stable")[:24]
full = np.flatnonzero(miss == 0)[:24]
pick = np.sort(np.concatenate([most, full]))
X = X[pick]
Z = (X - np.nanmean(X, axis=0)) / np.nanstd(X, axis=0)
D = Z[:, None, :] - Z[None, :, :]
msd = np.nanmean(D ** 2, axis=2)
out = {"rows": [int(i) for i in pick], "missing_cells": int(np.isnan(X).sum()),
       "X": [[None if np.isnan(v) else float(v) for v in r] for r in X], "cases": []}
for g in (32.0, 0.5):
    out["cases"].append({"gamma": g, "K": np.exp(-g * msd).tolist()})
print(json.dumps(out))
