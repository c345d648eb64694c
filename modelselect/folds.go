package modelselect

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
)

// ErrFolds marks folds that cannot be used: fewer than two, a fold
// without rows, a row in two folds, an unlabelled row in a fold, more
// folds than rows (or, stratified, than the rows of every class).
var ErrFolds = errors.New("cross-validation folds")

// Folds are the test rows of each fold of a cross-validation, as row
// indices of the data (sorted increasingly within a fold). The training
// rows of fold f are the labelled rows that are not in it; unlabelled rows
// are in no fold and stay unlabelled in every fit.
type Folds [][]int

// labelled returns the rows of y that carry a label, in order.
func labelled(y []int) []int {
	var rows []int
	for i, c := range y {
		if c != learner.Unlabeled {
			rows = append(rows, i)
		}
	}
	return rows
}

// foldRNG draws the shuffles of KFold and StratifiedKFold.
func foldRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6b666f6c64)) }

// KFold splits the labelled rows of y (in row order) into k folds of
// consecutive rows, the first n mod k folds one row larger than the
// others: scikit-learn's KFold(k) without shuffling gives the same test
// rows. With shuffle the labelled rows are first permuted by a PCG seeded
// with seed (Arbor's own draw: not NumPy's, so not scikit-learn's
// shuffled folds; ReadFolds reads those). Errors: ErrFolds for k < 2 or
// more folds than labelled rows.
func KFold(y []int, k int, shuffle bool, seed uint64) (Folds, error) {
	rows := labelled(y)
	n := len(rows)
	if k < 2 {
		return nil, fmt.Errorf("%w: %d folds, want at least 2", ErrFolds, k)
	}
	if k > n {
		return nil, fmt.Errorf("%w: %d folds of %d labelled rows, want at most one fold per row", ErrFolds, k, n)
	}
	if shuffle {
		foldRNG(seed).Shuffle(n, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	}
	out := make(Folds, k)
	start := 0
	for f := range out {
		size := n / k
		if f < n%k {
			size++
		}
		out[f] = slices.Clone(rows[start : start+size])
		slices.Sort(out[f])
		start += size
	}
	return out, nil
}

// StratifiedKFold splits the labelled rows of y into k folds that keep
// the class proportions, with scikit-learn's StratifiedKFold(k)
// assignment when shuffle is false: classes are numbered by first
// appearance, the sorted class sequence is dealt round robin to the k
// folds to fix how many rows of each class each fold gets, and each
// class's rows, in row order, fill fold 0 first, then fold 1, and so on.
// With shuffle, each class's sequence of fold numbers is permuted by a
// PCG seeded with seed before it is laid on the rows (scikit-learn
// permutes it with NumPy's generator: the same scheme, other draws).
// Errors: ErrFolds for k < 2 or k larger than every class's row count
// (a class smaller than k, scikit-learn's warning, is allowed: some folds
// then lack it).
func StratifiedKFold(y []int, k int, shuffle bool, seed uint64) (Folds, error) {
	rows := labelled(y)
	if k < 2 {
		return nil, fmt.Errorf("%w: %d folds, want at least 2", ErrFolds, k)
	}
	// classes by first appearance
	code := map[int]int{}
	enc := make([]int, len(rows))
	var counts []int
	for a, r := range rows {
		c, ok := code[y[r]]
		if !ok {
			c = len(counts)
			code[y[r]] = c
			counts = append(counts, 0)
		}
		enc[a] = c
		counts[c]++
	}
	if len(rows) == 0 || slices.Max(counts) < k {
		most := 0
		if len(counts) > 0 {
			most = slices.Max(counts)
		}
		return nil, fmt.Errorf("%w: %d folds, but no class has that many labelled rows (the largest has %d)", ErrFolds, k, most)
	}
	// allocation[f][c]: rows of class c in fold f, dealing the sorted
	// class sequence round robin (y_order[f::k]).
	alloc := make([][]int, k)
	for f := range alloc {
		alloc[f] = make([]int, len(counts))
	}
	pos := 0
	for c, m := range counts {
		for range m {
			alloc[pos%k][c]++
			pos++
		}
	}
	rng := foldRNG(seed)
	fold := make([]int, len(rows))
	for c := range counts {
		var seq []int
		for f := 0; f < k; f++ {
			for range alloc[f][c] {
				seq = append(seq, f)
			}
		}
		if shuffle {
			rng.Shuffle(len(seq), func(i, j int) { seq[i], seq[j] = seq[j], seq[i] })
		}
		i := 0
		for a := range rows {
			if enc[a] == c {
				fold[a] = seq[i]
				i++
			}
		}
	}
	out := make(Folds, k)
	for a, r := range rows {
		out[fold[a]] = append(out[fold[a]], r)
	}
	for f, t := range out {
		if len(t) == 0 {
			return nil, fmt.Errorf("%w: fold %d has no rows", ErrFolds, f)
		}
	}
	return out, nil
}

// ReadFolds reads folds from r, one fold per line: the comma-separated
// 0-based row indices of its test rows (the format of dataset.ReadSplits,
// whatever a peer's splitter gave: scikit-learn's test_index lists, say),
// and checks them against y (Check). name prefixes errors. Errors: the
// *dataset.ParseError of a bad line (file and line), ErrFolds.
func ReadFolds(r io.Reader, name string, y []int) (Folds, error) {
	lines, err := dataset.ReadSplits(r, name, len(y))
	if err != nil {
		return nil, err
	}
	f := Folds(lines)
	if err := f.Check(y); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// Check returns an ErrFolds error, naming the fold (1-based, as the line
// of a folds file) and row, unless there are at least two folds, each
// non-empty, of labelled rows of y in range, no row in two folds, and
// every fold leaves some labelled row to train on.
func (f Folds) Check(y []int) error {
	if len(f) < 2 {
		return fmt.Errorf("%w: %d folds, want at least 2", ErrFolds, len(f))
	}
	in := make([]int, len(y))
	nl := len(labelled(y))
	for k, rows := range f {
		if len(rows) == 0 {
			return fmt.Errorf("%w: fold %d has no rows", ErrFolds, k+1)
		}
		if len(rows) >= nl {
			return fmt.Errorf("%w: fold %d holds all %d labelled rows, leaving none to train on", ErrFolds, k+1, nl)
		}
		for _, r := range rows {
			switch {
			case r < 0 || r >= len(y):
				return fmt.Errorf("%w: fold %d: row %d not in [0, %d)", ErrFolds, k+1, r, len(y))
			case y[r] == learner.Unlabeled:
				return fmt.Errorf("%w: fold %d: row %d is unlabelled (a fold holds labelled rows only)", ErrFolds, k+1, r)
			case in[r] > 0:
				return fmt.Errorf("%w: row %d is in folds %d and %d", ErrFolds, r, in[r], k+1)
			}
			in[r] = k + 1
		}
	}
	return nil
}

// trainLabels returns y with the rows of fold f (and the unlabelled rows)
// unlabelled: the labels one fit of the cross-validation sees.
func (f Folds) trainLabels(y []int, k int) []int {
	yl := slices.Clone(y)
	for _, r := range f[k] {
		yl[r] = learner.Unlabeled
	}
	return yl
}

// Fold methods of FoldChoice.
const (
	Stratified = "stratified" // StratifiedKFold
	Plain      = "kfold"      // KFold
)

// FoldChoice says how to make the folds of a search: K folds by Method
// (Stratified, the default, or Plain), shuffled with Seed when Shuffle
// is set; or, when Path is not "", the folds of that file (ReadFolds;
// gzip data decompressed, dataset.Open), of Stdin for "-" (gzip found by
// its magic bytes too).
type FoldChoice struct {
	K       int
	Method  string
	Shuffle bool
	Seed    uint64
	Path    string
	Stdin   io.Reader
}

// Folds makes the folds over the labelled rows of y and describes them
// (Search.CV): "stratified:5", "kfold:5 shuffled seed 3", or the file's
// name. Errors: ErrFolds, an unknown method, the file's.
func (c FoldChoice) Folds(y []int) (Folds, string, error) {
	if c.Path != "" {
		var r io.ReadCloser
		var err error
		if c.Path == dataset.Stdin {
			r, err = dataset.OpenInput(c.Path, c.Stdin)
		} else {
			r, err = dataset.Open(c.Path)
		}
		if err != nil {
			return nil, "", err
		}
		defer r.Close()
		name := dataset.InputName(c.Path)
		f, err := ReadFolds(r, name, y)
		if err != nil {
			return nil, "", err
		}
		return f, "folds " + name, nil
	}
	var f Folds
	var err error
	m := c.Method
	switch m {
	case Stratified, "":
		m = Stratified
		f, err = StratifiedKFold(y, c.K, c.Shuffle, c.Seed)
	case Plain:
		f, err = KFold(y, c.K, c.Shuffle, c.Seed)
	default:
		return nil, "", fmt.Errorf("%w: unknown method %q (want %s or %s)", ErrFolds, c.Method, Stratified, Plain)
	}
	if err != nil {
		return nil, "", err
	}
	desc := fmt.Sprintf("%s:%d", m, c.K)
	if c.Shuffle {
		desc += fmt.Sprintf(" shuffled seed %d", c.Seed)
	}
	return f, desc, nil
}

// Write writes the folds in the format ReadFolds reads: one line of
// comma-separated test rows per fold.
func (f Folds) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, rows := range f {
		for i, r := range rows {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(strconv.Itoa(r))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// SmallClasses returns the classes of y with fewer labelled rows than k
// folds (in class order), for which StratifiedKFold leaves some folds
// without the class (scikit-learn warns of them too).
func SmallClasses(y []int, k int) []int {
	count := map[int]int{}
	for _, c := range y {
		if c != learner.Unlabeled {
			count[c]++
		}
	}
	var out []int
	for c, m := range count {
		if m < k {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}
