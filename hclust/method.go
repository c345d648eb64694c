package hclust

import (
	"errors"
	"fmt"
	"strings"
)

// Method is a linkage criterion: the rule D(C1, C2) that scores a pair of
// clusters. Each method is applied through the Lance–Williams update of
// the distance from a new cluster xy to a cluster i (sizes nx, ny, ni):
//
//	Single    d(xy,i) = min(d(x,i), d(y,i))                        paper 000 eq. (1)
//	Complete  d(xy,i) = max(d(x,i), d(y,i))                        paper 000 eq. (2)
//	Average   d(xy,i) = (nx d(x,i) + ny d(y,i)) / (nx + ny)        paper 000 eq. (3), UPGMA
//	Weighted  d(xy,i) = (d(x,i) + d(y,i)) / 2                      WPGMA
//	Ward      d(xy,i) = sqrt(((ni+nx) d(x,i)² + (ni+ny) d(y,i)² − ni d(x,y)²) / (nx+ny+ni))
//	Centroid  d(xy,i) = sqrt((nx d(x,i)² + ny d(y,i)² − nx ny d(x,y)²/(nx+ny)) / (nx+ny))
//	Median    d(xy,i) = sqrt(d(x,i)²/2 + d(y,i)²/2 − d(x,y)²/4)    WPGMC
//
// Ward, Centroid and Median are meaningful for Euclidean input distances,
// as in SciPy. Centroid and Median are not monotone: a merge can be lower
// than an earlier one (an inversion).
type Method int

// The linkage methods, named as in scipy.cluster.hierarchy.linkage.
const (
	Single Method = iota
	Complete
	Average
	Weighted
	Ward
	Centroid
	Median
)

var methodNames = [...]string{"single", "complete", "average", "weighted", "ward", "centroid", "median"}

// String returns the SciPy name of m ("single", "average", ...).
func (m Method) String() string {
	if m < 0 || int(m) >= len(methodNames) {
		return fmt.Sprintf("Method(%d)", int(m))
	}
	return methodNames[m]
}

// reducible reports whether m satisfies the reducibility property
// D(C1∪C2, C3) ≥ min(D(C1, C3), D(C2, C3)) that the nearest-neighbour
// chain needs (paper 000 §3.1 proves it for single, complete and average).
func (m Method) reducible() bool {
	return m == Single || m == Complete || m == Average || m == Weighted || m == Ward
}

func (m Method) valid() bool { return m >= Single && m <= Median }

// Methods returns all linkage methods in declaration order.
func Methods() []Method {
	return []Method{Single, Complete, Average, Weighted, Ward, Centroid, Median}
}

// ParseMethod parses a SciPy method name, case-insensitively. The aliases
// "upgma" (average), "wpgma" (weighted), "upgmc" (centroid) and "wpgmc"
// (median) are accepted. Unknown names return an error wrapping ErrMethod.
func ParseMethod(s string) (Method, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "upgma":
		return Average, nil
	case "wpgma":
		return Weighted, nil
	case "upgmc":
		return Centroid, nil
	case "wpgmc":
		return Median, nil
	}
	for i, name := range methodNames {
		if t == name {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("hclust: unknown linkage method %q (want one of %s): %w",
		s, strings.Join(methodNames[:], ", "), ErrMethod)
}

// Sentinel errors, usable with errors.Is.
var (
	// ErrMethod: unknown linkage method.
	ErrMethod = errors.New("unknown linkage method")
	// ErrTooFewRows: fewer than two observations (rows).
	ErrTooFewRows = errors.New("need at least 2 observations")
	// ErrShape: the condensed matrix or point matrix has the wrong size.
	ErrShape = errors.New("bad shape")
	// ErrNonFinite: a distance or coordinate is NaN or ±Inf.
	ErrNonFinite = errors.New("non-finite value")
	// ErrNegative: a distance is negative.
	ErrNegative = errors.New("negative distance")
	// ErrK: the number of clusters is outside 1..N.
	ErrK = errors.New("number of clusters out of range")
	// ErrTree: a Tree or linkage matrix is not a valid dendrogram.
	ErrTree = errors.New("invalid tree")
)

func errOverflow() error {
	return fmt.Errorf("hclust: a distance or a linkage update overflows float64: %w", ErrNonFinite)
}
