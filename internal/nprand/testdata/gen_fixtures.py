# Writes testdata/numpy_legacy.json: NumPy RandomState outputs for nprand tests.
# Run: /usr/bin/python3 testdata/gen_fixtures.py > testdata/numpy_legacy.json  (NumPy 1.24, Debian 12)
import numpy as np, json
out = {}
for s in [0, 1, 2, 42, 4294967295]:
    r = np.random.RandomState(s)
    out[str(s)] = {"u32": [int(x) for x in r.randint(0, 2**32, size=5, dtype=np.uint64)]}
    r = np.random.RandomState(s)
    out[str(s)]["perm10"] = r.permutation(10).tolist()
    r = np.random.RandomState(s)
    out[str(s)]["choice"] = r.choice(np.arange(100, 1300), 7, replace=False).tolist()
    r = np.random.RandomState(s)
    out[str(s)]["perm70000"] = r.permutation(70000)[:5].tolist()
out["rand5_seed0"] = np.random.RandomState(0).rand(5).tolist()  # TestRandMatchesNumPy
print(json.dumps(out))
