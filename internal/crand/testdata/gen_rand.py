#!/usr/bin/python3
"""Writes rand.json: outputs of the C library's rand() (glibc) for the Go
tests of package crand. Run from this directory: /usr/bin/python3 gen_rand.py

"default" is rand() in a fresh process that never calls srand (as LIBSVM's
svm-train), "seeds" after srand(s). The first 1000 values of each, and the
values 10000..10009 of the default sequence.
"""
import ctypes
import json
import platform
import subprocess


def run(seed):
    code = (
        "import ctypes\n"
        "l = ctypes.CDLL('libc.so.6')\n"
        + ("" if seed is None else "l.srand(%d)\n" % seed)
        + "print([l.rand() for _ in range(10010)])\n"
    )
    out = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


libc = ctypes.CDLL("libc.so.6")
libc.gnu_get_libc_version.restype = ctypes.c_char_p
d = run(None)
out = {
    "generator": "internal/crand/testdata/gen_rand.py, glibc " + libc.gnu_get_libc_version().decode() + ", " + platform.machine(),
    "default": d[:1000],
    "default_10000": d[10000:10010],
    "seeds": {str(s): run(s)[:1000] for s in (0, 1, 2, 42, 4294967295)},
}
with open("rand.json", "w") as f:
    json.dump(out, f)
    f.write("\n")
