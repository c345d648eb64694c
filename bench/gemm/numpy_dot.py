#!/usr/bin/python3
"""Time numpy.dot (the BLAS numpy links, OpenBLAS on Debian) on n x n
matrices for bench/gemm. Usage: numpy_dot.py N REPS; the thread count is
the environment's OPENBLAS_NUM_THREADS. Prints one JSON object: best wall
and process CPU seconds of REPS products, and the BLAS threadpoolctl reports.
"""
import json
import sys
import time

import numpy as np

n, reps = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(1)
a, b = rng.uniform(-1, 1, (n, n)), rng.uniform(-1, 1, (n, n))
c = np.dot(a, b)  # warm up: threads started, pages touched
best, best_cpu = float("inf"), float("inf")
for _ in range(reps):
    t, p = time.perf_counter(), time.process_time()
    np.dot(a, b, out=c)
    best = min(best, time.perf_counter() - t)
    best_cpu = min(best_cpu, time.process_time() - p)
try:
    from threadpoolctl import threadpool_info
    info = [f"{i['internal_api']} {i['version']} {i['architecture']} threads={i['num_threads']}" for i in threadpool_info()]
except ImportError:
    info = []
print(json.dumps({"seconds": best, "cpu_seconds": best_cpu, "blas": info}))
