package linsvm

import "errors"

// ErrNoGram: linsvm has no kernel-matrix form; it runs on features (the
// landmark features of arbor's --landmarks).
var ErrNoGram = errors.New("linsvm runs on features, not on a kernel matrix")
