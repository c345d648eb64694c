"""LIBSVM in this process through ctypes (libsvm.so.3 from Debian's libsvm3,
installed with libsvm-tools), for the scripts that need a model's
probabilities and decision values to full precision: a model file keeps
the support vectors to 8 digits, which moves the probabilities by about
1e-8; the model svm_train leaves in memory does not.

Used by svm/testdata/gen_proba.py, pipeline/testdata/gen_landmark_proba.py
and bench/proba/heldout.py, which put this directory on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers"))
    import libsvm_mem

train() runs svm_train with svm-train -b 1's settings; srand(1) first,
glibc's default state, that of a fresh svm-train process (which never calls
srand), so the 5-fold cross-validation of the Platt fit draws the same
folds as svm-train.
"""
import ctypes
import os
import tempfile

# kernel_type values of svm.h
LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = 0, 1, 2, 3, 4


class Node(ctypes.Structure):
    _fields_ = [("index", ctypes.c_int), ("value", ctypes.c_double)]


class Problem(ctypes.Structure):
    _fields_ = [("l", ctypes.c_int), ("y", ctypes.POINTER(ctypes.c_double)), ("x", ctypes.POINTER(ctypes.POINTER(Node)))]


class Parameter(ctypes.Structure):
    _fields_ = [("svm_type", ctypes.c_int), ("kernel_type", ctypes.c_int), ("degree", ctypes.c_int),
                ("gamma", ctypes.c_double), ("coef0", ctypes.c_double), ("cache_size", ctypes.c_double),
                ("eps", ctypes.c_double), ("C", ctypes.c_double), ("nr_weight", ctypes.c_int),
                ("weight_label", ctypes.POINTER(ctypes.c_int)), ("weight", ctypes.POINTER(ctypes.c_double)),
                ("nu", ctypes.c_double), ("p", ctypes.c_double), ("shrinking", ctypes.c_int), ("probability", ctypes.c_int)]


lib = ctypes.CDLL("libsvm.so.3")
libc = ctypes.CDLL("libc.so.6")
_PRINT = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
_quiet = _PRINT(lambda s: None)  # svm-train -q
lib.svm_set_print_string_function.argtypes = [_PRINT]
lib.svm_set_print_string_function(_quiet)
lib.svm_train.restype = ctypes.c_void_p
lib.svm_train.argtypes = [ctypes.POINTER(Problem), ctypes.POINTER(Parameter)]
lib.svm_save_model.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
lib.svm_load_model.restype = ctypes.c_void_p
lib.svm_load_model.argtypes = [ctypes.c_char_p]
lib.svm_get_nr_class.argtypes = [ctypes.c_void_p]
lib.svm_get_labels.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
lib.svm_predict_probability.restype = ctypes.c_double
lib.svm_predict_probability.argtypes = [ctypes.c_void_p, ctypes.POINTER(Node), ctypes.POINTER(ctypes.c_double)]
lib.svm_predict_values.restype = ctypes.c_double
lib.svm_predict_values.argtypes = [ctypes.c_void_p, ctypes.POINTER(Node), ctypes.POINTER(ctypes.c_double)]


def nodes(r, serial=None):
    """A row as LIBSVM's svm_node array (features 1..d, then index -1);
    index 0 holds the serial number of a precomputed kernel row."""
    first = [Node(0, serial)] if serial is not None else []
    return (Node * (len(r) + 1 + len(first)))(*first, *[Node(j + 1, float(v)) for j, v in enumerate(r)], Node(-1, 0))


def header(path):
    """A model file's header lines (up to "SV") as {key: [values]}."""
    h = {}
    with open(path) as f:
        for line in f:
            if line.startswith("SV"):
                break
            k, *v = line.split()
            h[k] = v
    return h


class Model:
    """A LIBSVM model in memory, with the rows it was trained on (its
    support vectors point into them)."""

    def __init__(self, ptr, keep=None):
        self.ptr = ptr
        self._keep = keep

    def header(self):
        """The header svm_save_model writes for this model (label, probA,
        probB, rho, nr_sv, ... as strings, 17 significant digits)."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "model")
            lib.svm_save_model(path.encode(), self.ptr)
            return header(path)

    def nr_class(self):
        return lib.svm_get_nr_class(self.ptr)

    def labels(self):
        """The model's label order (that of the probability columns)."""
        k = self.nr_class()
        out = (ctypes.c_int * k)()
        lib.svm_get_labels(self.ptr, out)
        return list(out)

    def predict_probability(self, r, serial=None):
        """svm_predict_probability on row r: one probability per class,
        in the model's label order. serial: the row's serial number for a
        precomputed kernel (its kernel values against the training rows)."""
        k = self.nr_class()
        p = (ctypes.c_double * k)()
        lib.svm_predict_probability(self.ptr, nodes(r, serial), p)
        return list(p)

    def predict_values(self, r):
        """svm_predict_values on row r: the k(k-1)/2 decision values in
        LIBSVM's pair order over its labels."""
        k = self.nr_class()
        d = (ctypes.c_double * (k * (k - 1) // 2))()
        lib.svm_predict_values(self.ptr, nodes(r), d)
        return list(d)


def train(rows, y, kernel_type, C, gamma=None, weights=None):
    """svm_train in this process with svm-train -b 1 -t kernel_type -c C
    [-g gamma] [-wLABEL W ...]'s settings (C-SVC, eps 1e-3, cache 100 MB,
    shrinking); gamma None is svm-train's default 1/d. For PRECOMPUTED,
    rows are the kernel rows against the training rows, numbered 1, 2, ...
    in order."""
    weights = weights or {}
    pre = kernel_type == PRECOMPUTED
    xs = [nodes(r, i + 1 if pre else None) for i, r in enumerate(rows)]
    prob = Problem(len(xs), (ctypes.c_double * len(xs))(*[float(c) for c in y]),
                   (ctypes.POINTER(Node) * len(xs))(*[ctypes.cast(x, ctypes.POINTER(Node)) for x in xs]))
    wl = (ctypes.c_int * max(len(weights), 1))(*weights.keys())
    wv = (ctypes.c_double * max(len(weights), 1))(*weights.values())
    if gamma is None:
        gamma = 1.0 / len(rows[0])
    param = Parameter(svm_type=0, kernel_type=kernel_type, degree=3, gamma=gamma, coef0=0, cache_size=100, eps=1e-3,
                      C=C, nr_weight=len(weights), weight_label=wl, weight=wv, nu=0.5, p=0.1, shrinking=1, probability=1)
    libc.srand(1)
    return Model(lib.svm_train(ctypes.byref(prob), ctypes.byref(param)), (xs, prob, wl, wv, param))


def load(path):
    """svm_load_model: a model read back from a file (support vectors as
    written, to 8 digits)."""
    return Model(lib.svm_load_model(path.encode()))
