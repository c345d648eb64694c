#!/bin/sh
# Regenerates peers_cluster.jsonl: scikit-learn agglomerative, spectral
# (nearest_neighbors, 10) and DBSCAN clusterings of the six toy sets, features
# z-scored (peers.py default --scale std). Run from svcluster/testdata.
for s in noisy_circles noisy_moons blobs aniso varied no_structure; do
	/usr/bin/python3 ../../bench/peers/peers.py cluster --csv ../../dataset/data/$s.csv.gz
done > peers_cluster.jsonl
