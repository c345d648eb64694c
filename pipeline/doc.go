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
// # File format (version 3)
//
// A pipeline file is
//
//	ARBOR-PIPELINE 3\n                     magic and format version
//	{manifest JSON on one line}\n
//	map                                    landmark pipelines only (see below)
//	learner payload                        the learner package's own Save output
//	ARBOR-CRC32C 1a2b3c4d\n                CRC-32C (Castagnoli) of every byte before this line
//
// The manifest holds
//
//	"features":   ["x1", "x2", …]         feature column names of the training file, in order (distinct)
//	"classes":    ["setosa", …]           class names (distinct); the model's label c is classes[c]
//	"label":      "species"               label column name of the training file
//	"id":         "name"                  ID column name ("" when none)
//	"scale":      {"How": "std", "Shift": […], "Factor": […]}   one shift and one positive factor per feature
//	"kernel":     "rbf:0.5"               kernel.Spec text (kernel.ParseSpec reads it)
//	"gamma":      0.25                    the gamma rbf:scale resolved to (0 otherwise)
//	"rule":       "tree"                  out-of-sample rule of the cluster kernels ("tree", "linear" or "")
//	"train":      [[…], …]                the N scaled training rows (N×d, finite)
//	"learner":    "svm"                   learner package: svm, knn, propagate, s4vm, hibust
//	"affinity":   "knn:10"                label propagation/spreading fitted on the points: its affinity (rbf:G, knn:K); absent otherwise
//	"payload_bytes": 1234                 length of the learner payload
//	"payload_crc32": 305419896            its CRC-32 (IEEE)
//	"selection":  {"learner": "svm", "kernel": "rbf:0.1", "params": {"C": "10"}, "scoring": "accuracy",
//	               "cv": "stratified:5", "folds": 5, "candidates": 16, "mean_test_score": 0.98, "std_test_score": 0.016}
//	                                      a model chosen by a grid search (modelselect): the setting and how; absent otherwise
//
// Numbers are written with Go's shortest round-trip formatting, so a loaded
// pipeline computes bit-identical kernel rows.
//
// # Landmark pipelines
//
// A pipeline fitted with M landmarks (NewLandmarks; arbor classify
// --landmarks M) keeps no training rows: a new point x gets
//
//	z = scale(x)
//	f = map(z)                             (landmark.Map: landmark.Nystrom, f = k_L(z)·K_LL^{-1/2};
//	                                        landmark.ISOMAP, landmark MDS of its geodesics;
//	                                        landmark.MultiType, the multi-type kernel's features)
//	label = model(f)                       (svm.Model with the linear kernel, linsvm.Model, or
//	                                        knn.Model fitted on the features)
//
// or, for the anchor graph (propagate.AnchorModel: label propagation or
// spreading), label = model(z) from z's nearest anchors, and for label
// spreading on the kNN graph of all rows (propagate.KNNModel, which keeps
// the N training rows and their soft labels: an O(N·(d + C)) file),
// label = model(z) from z's K nearest training rows. The same models
// give probabilities and decision values (PredictWant, Settings.Proba and
// Decision; Landmarks.PredictWant): the SVM's Platt probabilities (a
// model fitted with them) and decision values, kNN's vote shares,
// linsvm's decision values, and the normalised label distributions of the
// anchor graph and the kNN graph. The file is
//
//	ARBOR-PIPELINE 3\n
//	{manifest JSON on one line}\n         as above, "train" empty, and
//	                                       "landmarks": "nystrom" | "landmark-isomap" | "nystrom-multitype" | "anchor-graph" | "knn-graph",
//	                                       "map_bytes", "map_crc32": length and CRC-32 of the map
//	map                                    the map's own Save output (absent for anchor-graph, knn-graph)
//	learner payload                        "learner": "svm" | "linsvm" | "knn" | "anchor-graph" | "knn-graph"
//	ARBOR-CRC32C 1a2b3c4d\n
//
// The map holds what rebuilds the features exactly: the M landmark rows and
// K_LL^{-1/2} (U_r Λ_r^{-1/2}) with the point kernel's text, or with the
// cluster kernel's linkage, graph and tree on the landmarks (the tree-aware
// rule is rebuilt from it); for landmark ISOMAP, the N training rows and the
// M×N geodesic distances from the landmarks (a new point's geodesics run
// through its graph neighbours), so that file is O(N·M). Float blocks are
// base64 of the IEEE-754 bits (internal/modelio.Floats).
//
// # Reading a file
//
// Load reads the whole file (memory: its length; no size field is
// trusted for an allocation), checks the CRC-32C line of a version 3 file
// before decoding anything, then checks the manifest: payload_bytes and
// map_bytes against the bytes that follow it, distinct feature and class
// names, the scaling's length, finite numbers, known learner and map
// kinds; the learner packages' loaders check their own counts and
// indices against the blocks they read. A file that does not start with
// the magic is ErrForeign; one cut short, not matching a checksum, or
// with a field that fails these checks is ErrTruncated, naming the field;
// a version newer than this package reads is ErrVersion. Every error
// names the file.
//
// # Older versions
//
// Versions 1 (pipelines without landmarks) and 2 (landmark pipelines)
// are version 3 without the checksum line: Load still reads them, with
// the same field checks, but a change inside their manifest that keeps
// it consistent (a digit of a training row, say) goes unnoticed there;
// the map and the payload carry their own CRC-32 in every version. Save
// writes version 3 only.
package pipeline
