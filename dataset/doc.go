// Package dataset holds Arbor's tables of points: reading them from CSV and
// LIBSVM files, the embedded demo and benchmark sets, seeded generators and
// feature scaling.
//
// A Dataset is an n×d matrix X (gonum *mat.Dense, rows are points) with a
// label per row: Y[i] indexes Classes, or is Unlabeled (−1) for the
// unlabelled rows of a semi-supervised problem.
//
// # Delimited text (CSV, TSV, …)
//
// ReadCSV reads RFC 4180 text, comma-separated or not:
//
//	id,f1,f2,class
//	s1,5.1,3.5,setosa
//	s2,4.9,,?
//
// The separator is found from the first lines (tab, semicolon, comma, pipe,
// or runs of blanks; CSVOptions.Sep sets it); with a separator other than a
// comma a decimal comma ("1,5") is read as 1.5. Whether the first row is a
// header is found from the content (a text cell above a number is a
// header; CSVOptions.NoHeader / Header decide it); headerless columns are
// named c1, c2, ….
//
// Column roles: the label column is CSVOptions.Label (a name or a 1-based
// position), or else a column named "label", "class", "target" or "y" (any
// case), or else, in a headerless file, a last column of text
// (Source.LabelAuto); CSVOptions.ID names a column of row IDs
// (Dataset.IDs; an unnamed first column, pandas' and R's row names, is
// one); CSVOptions.Ignore skips columns; CSVOptions.Features picks the
// features by name, position or range "A..B". Everything the reader decided
// is in Dataset.Source.
//
// Labels are strings: numbers are compared exactly, never through
// float64, so "1" and "1.0" are one class and "12345678901234567" and
// "12345678901234568" two; classes sort by value when all are numbers (so
// integer labels 0..C−1 give Y equal to the integer), lexically otherwise.
// An empty label cell, "?" or "NA" (CSVOptions.Unlabeled: e.g. "-1")
// marks an unlabelled row.
//
// Feature cells are finite numbers (strconv.ParseFloat syntax without
// underscores or hexadecimal). Missing values (empty, "?", "NA", "N/A",
// "NaN", "null") are ErrMissing, or, with CSVOptions.AllowMissing, NaN in X
// listed in Dataset.Missing with their lines (Dataset.MissingError tells a
// method's user which cells it cannot use). A UTF-8 byte-order mark, CRLF
// and bare-CR line ends, blank lines and spaces around cells are accepted.
//
// # LIBSVM / SVMlight
//
// ReadLIBSVM reads "label index:value ..." lines, 1-based strictly
// increasing indices (a file using index 0 is read as 0-based,
// Source.ZeroBased), "#" comments, "qid:" ignored, label "?" unlabelled,
// into a dense matrix with as many columns as the largest index.
//
// Load reads a file by its content: LIBSVM when every sampled line is
// "label index:value …", delimited text otherwise (always for .csv and
// .tsv); gzip data are decompressed (Open: found by the magic bytes
// 1f 8b whatever the name; a .gz name must be gzip data); .json, .xlsx,
// .npy and other formats it does not read are ErrFormat.
//
// # Standard input
//
// The path Stdin ("-") is standard input, as for Unix tools: ReadData
// reads a data set from a reader with no name to go by (gzip found by its
// magic bytes 1f 8b, the format by the content), once; Options.Load and
// Options.LoadNew read Options.Stdin for it, OpenInput opens it for the
// readers that go in chunks. Errors name it StdinName ("standard
// input:12: …"); an empty standard input is ErrEmpty.
//
// # Errors
//
// Readers return a *ParseError naming the file, the 1-based physical line
// and, where it applies, the column:
//
//	data.csv:12: column "x3": not a number "1,5"
//
// It wraps a sentinel error for errors.Is:
//
//	ErrEmpty            no header (CSV) or no data line (LIBSVM, splits)
//	ErrNoRows           a CSV header and no data rows
//	ErrTooFewRows       a single data row (every method here needs two)
//	ErrRagged           a row with more or fewer cells than the header
//	ErrNotNumber        a feature cell (or LIBSVM label) that is not a number
//	ErrNonFinite        NaN, ±Inf, or a number overflowing float64
//	ErrDuplicateColumn  two header cells with one name
//	ErrNoLabelColumn    the label column is not in the header
//	ErrUnknownColumn    an ID, ignored or feature column not in the header
//	ErrRoles            one column given two roles
//	ErrMissing          a missing feature value without AllowMissing
//	ErrNoFeatures       no feature column / no LIBSVM index
//	ErrSyntax           malformed quoting, LIBSVM token without ':'
//	ErrBadIndex         LIBSVM index negative, not an integer or not increasing
//	ErrTooLarge         more than MaxCells matrix entries
//	ErrIndexRange, ErrDuplicateIndex   bad split files (ReadSplits)
//
// No reader panics on any input (FuzzReadCSV, FuzzReadLIBSVM).
//
// # Embedded sets
//
// Embedded(name) returns a fresh copy of a set compiled into the binary
// (gzip-compressed CSV in data/, copied from the team's shared/data):
//
//	iris           150×4,    3 classes  UCI, as bundled with scikit-learn
//	wine           178×13,   3 classes  UCI, as bundled with scikit-learn
//	two_moons      400×2,    2 classes  make_moons(400, noise=0.1, random_state=0)
//	usps           1500×241, 2 classes (1200/300)  Chapelle, Schölkopf & Zien,
//	               Semi-Supervised Learning (2006), benchmark set 2
//	gauss9         900×2,    9 classes  3×3 grid of Gaussians, σ = 0.3
//	noisy_circles, noisy_moons, blobs, aniso, varied, no_structure
//	               1500×2 each: scikit-learn's clustering comparison toy sets, seed 0
//	reuters10      855×500,  10 categories, multi-label (LIBSVM format, Sets):
//	               paper 002's Reuters-21578 subset, ModApte split, tf-idf of
//	               500 χ²-selected stems, unit rows (shared/data/make_reuters10.py)
//
// EmbeddedSplits("usps", 10 or 100) gives the book's 12 official splits
// (sorted labelled-row indices; papers 000 and 002 use the first);
// EmbeddedSplits("reuters10", 626) the one ModApte split (626 training
// documents labelled, 229 test documents hidden).
//
// # Generators
//
// Moons, Circles, Blobs and GaussGrid draw the distributions of
// scikit-learn's make_moons, make_circles and make_blobs and of gauss9
// from math/rand/v2 PCG with an explicit seed: the same seed gives the
// same set on every platform, but not scikit-learn's numbers. They panic
// on invalid sizes (validate user input first).
//
// # Scaling
//
// Standardize (z-score with the population standard deviation), MinMax
// (onto [0, 1]) and Scale("none"|"std"|"minmax") follow peers.py scale():
// statistics over all rows, labelled and unlabelled, and constant columns
// become 0. They are O(n·d) and return new matrices. FitScaler keeps the
// statistics (Scaler.Shift, Scaler.Factor) to scale later points alike.
//
// # Speed
//
// Reading is linear in the input. Lines without quotes are split in place
// and plain decimals up to 15 significant digits are converted by Clinger's
// exact fast path (bit-identical to strconv.ParseFloat, fuzz-checked), so
// the 4.8 MB usps CSV parses in about 20 ms (BenchmarkReadCSV); Embedded
// gunzips and parses a set once per process and then hands out copies.
package dataset
