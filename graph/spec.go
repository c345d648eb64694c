package graph

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrSpec reports an unparsable or invalid graph specification.
	ErrSpec = errors.New("graph: bad graph spec")
	// ErrK reports k < 1 or k >= N for a kNN graph.
	ErrK = errors.New("graph: bad neighbour count k")
	// ErrEps reports a radius that is not a positive finite number.
	ErrEps = errors.New("graph: bad radius eps")
	// ErrTooFewRows reports fewer than two points (rows).
	ErrTooFewRows = errors.New("graph: need at least two points")
	// ErrEdge reports an invalid edge given to New.
	ErrEdge = errors.New("graph: bad edge")
)

// Kinds of neighbourhood graph.
const (
	KindKNN = "knn" // symmetrised k-nearest-neighbour graph (union)
	KindEps = "eps" // ε-ball graph: edges of length <= Eps
)

// Spec names a neighbourhood graph: Kind "knn" with K neighbours or Kind
// "eps" with radius Eps. The text form, accepted by ParseSpec and produced
// by String, is "knn:7" or "eps:0.5".
type Spec struct {
	Kind string // KindKNN or KindEps
	K    int    // neighbours, for "knn"
	Eps  float64
	// Sklearn, for "knn", is 0 for Arbor's tie rule (the lower index wins
	// among equal distances: KNN) or the number of threads of the
	// scikit-learn run whose choice among tied neighbours the graph
	// reproduces (KNNSklearn). Text form "knn:K:sklearn" (one thread) or
	// "knn:K:sklearn=T".
	Sklearn int
}

// ParseSpec parses "knn:K" (K an integer >= 1), "knn:K:sklearn",
// "knn:K:sklearn=T" (scikit-learn's tie rule, see KNNSklearn) or "eps:E"
// (E > 0, finite).
// Whether K < N is checked when the graph is built. Errors wrap ErrSpec,
// and ErrK or ErrEps for a bad number.
func ParseSpec(s string) (Spec, error) {
	kind, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	arg = strings.TrimSpace(arg)
	if !ok || arg == "" {
		return Spec{}, fmt.Errorf("%w %q: want \"knn:K\" or \"eps:E\"", ErrSpec, s)
	}
	var sp Spec
	switch kind {
	case KindKNN:
		arg, ties, hasTies := strings.Cut(arg, ":")
		k, err := strconv.Atoi(strings.TrimSpace(arg))
		if err != nil {
			return Spec{}, fmt.Errorf("%w %q: k %q is not an integer", ErrSpec, s, arg)
		}
		sp = Spec{Kind: KindKNN, K: k}
		if hasTies {
			if sp.Sklearn, err = parseTies(ties); err != nil {
				return Spec{}, fmt.Errorf("%w %q: %w", ErrSpec, s, err)
			}
		}
	case KindEps:
		e, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return Spec{}, fmt.Errorf("%w %q: eps %q is not a number", ErrSpec, s, arg)
		}
		sp = Spec{Kind: KindEps, Eps: e}
	default:
		return Spec{}, fmt.Errorf("%w %q: unknown kind %q (want knn or eps)", ErrSpec, s, kind)
	}
	if err := sp.validate(); err != nil {
		return Spec{}, fmt.Errorf("%w %q: %w", ErrSpec, s, err)
	}
	return sp, nil
}

// parseTies parses the tie rule of "knn:K:RULE": "sklearn" or "sklearn=T".
func parseTies(s string) (int, error) {
	s = strings.TrimSpace(s)
	name, t, hasT := strings.Cut(s, "=")
	if strings.TrimSpace(name) != "sklearn" {
		return 0, fmt.Errorf("tie rule %q: want sklearn or sklearn=THREADS (the default, no rule, is the lower index)", s)
	}
	if !hasT {
		return 1, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(t))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("tie rule %q: threads %q is not an integer >= 1", s, t)
	}
	return n, nil
}

// String returns the text form, "knn:7" or "eps:0.5".
func (s Spec) String() string {
	switch s.Kind {
	case KindKNN:
		switch {
		case s.Sklearn == 1:
			return "knn:" + strconv.Itoa(s.K) + ":sklearn"
		case s.Sklearn > 1:
			return "knn:" + strconv.Itoa(s.K) + ":sklearn=" + strconv.Itoa(s.Sklearn)
		}
		return "knn:" + strconv.Itoa(s.K)
	case KindEps:
		return "eps:" + strconv.FormatFloat(s.Eps, 'g', -1, 64)
	}
	return fmt.Sprintf("%s:?", s.Kind)
}

// validate checks the spec without knowing N.
func (s Spec) validate() error {
	switch s.Kind {
	case KindKNN:
		if s.K < 1 {
			return fmt.Errorf("%w: k = %d, want k >= 1", ErrK, s.K)
		}
		if s.Sklearn < 0 {
			return fmt.Errorf("sklearn tie rule with %d threads, want at least 1", s.Sklearn)
		}
	case KindEps:
		if !(s.Eps > 0) || math.IsInf(s.Eps, 0) {
			return fmt.Errorf("%w: eps = %v, want a finite eps > 0", ErrEps, s.Eps)
		}
	default:
		return fmt.Errorf("%w: unknown kind %q (want knn or eps)", ErrSpec, s.Kind)
	}
	return nil
}
