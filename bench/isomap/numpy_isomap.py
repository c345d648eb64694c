#!/usr/bin/python3
"""The ISOMAP kernel of the reference pipeline (bench/peers/peers.py) as one
process: read a CSV (header, last column the label), G = knn_geodesic(X)
(7-NN graph, SciPy Dijkstra), K = psd_clip(double_center(G*G)) (numpy.linalg.eigh),
np.save(OUT, K).

    /usr/bin/python3 bench/isomap/numpy_isomap.py data.csv K.npy
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
import peers  # noqa: E402


def main():
    X = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)[:, :-1]
    G, _ = peers.knn_geodesic(X)
    K, _ = peers.psd_clip(peers.double_center(G * G))
    np.save(sys.argv[2], K)


if __name__ == "__main__":
    main()
