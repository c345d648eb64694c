// Package pipeline saves a fitted classifier together with everything
// needed to label new points later, in another process: the column names
// and classes of the training file, the feature scaling fitted on it, the
// kernel, the (scaled) training rows the kernel rows of new points are
// computed against, the out-of-sample rule, and the learner's own model.
//
// A new point x (raw features, in the training file's feature order) is
// labelled by
//
//	z = scale(x)                          (dataset.Scaler fitted on the training rows)
//	k_z = [k(z, x_1), …, k(z, x_N)]       (kernel.Built.Extend against the N training rows)
//	label = model.Predict(k_z)            (PredictDiag with k(z, z) for learners that need it)
//
// exactly as `arbor classify --test` does within one process, so a saved
// pipeline labels a point as the fitting process would have. Point kernels
// (linear, poly, rbf, laplacian, exponential) evaluate k directly; the
// data-dependent kernels (hck, hckg, connectivity, isomap) rebuild their
// N×N matrix from the stored training rows once, when the first points are
// labelled (the build is deterministic: the same matrix as at fitting
// time), and then extend it by their rule (kernel.TreeExtension for the
// cluster kernels by default, or the linear rule of paper 000 §3.5).
//
// # File format (version 1)
//
// A pipeline file is
//
//	ARBOR-PIPELINE 1\n                     magic and format version
//	{manifest JSON on one line}\n
//	learner payload                        the learner package's own Save output
//
// The manifest holds
//
//	"features":   ["x1", "x2", …]         feature column names of the training file, in order
//	"classes":    ["setosa", …]           class names; the model's label c is classes[c]
//	"label":      "species"               label column name of the training file
//	"id":         "name"                  ID column name ("" when none)
//	"scale":      {"How": "std", "Shift": […], "Factor": […]}
//	"kernel":     "rbf:0.5"               kernel.Spec text (kernel.ParseSpec reads it)
//	"gamma":      0.25                    the gamma rbf:scale resolved to (0 otherwise)
//	"rule":       "tree"                  out-of-sample rule of the cluster kernels
//	"train":      [[…], …]                the N scaled training rows (N×d)
//	"learner":    "svm"                   learner package: svm, knn, propagate, s4vm, hibust
//	"affinity":   "knn:10"                label propagation/spreading fitted on the points: its affinity (rbf:G, knn:K); absent otherwise
//	"payload_bytes": 1234                 length of the learner payload
//	"payload_crc32": 305419896            its CRC-32 (IEEE)
//
// Numbers are written with Go's shortest round-trip formatting, so a loaded
// pipeline computes bit-identical kernel rows. A file that does not start
// with the magic is ErrForeign; one whose manifest or payload is cut short,
// or whose payload does not match its checksum, is ErrTruncated; a version
// newer than this package reads is ErrVersion. Every error names the file.
// Later versions keep reading version 1 files.
package pipeline
