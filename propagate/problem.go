package propagate

import (
	"fmt"
	"strings"

	"github.com/arbor-ml/arbor/learner"
)

// problem is the labelled data shared by all methods.
type problem struct {
	n, C    int
	Y       []float64 // n×C: indicator rows of labelled points, 0 elsewhere
	labeled []bool
	multi   bool
}

// newProblem checks the labels; every point labelled is ErrNoUnlabeled
// unless allLabeled (a fit kept for its out-of-sample rule, FitKNN).
func newProblem(y []int, sets [][]int, classes int, n int, allLabeled bool) (*problem, error) {
	p := &problem{n: n, labeled: make([]bool, n), multi: sets != nil}
	m := len(y)
	if sets != nil {
		m = len(sets)
	}
	if m != n {
		return nil, fmt.Errorf("%w: %d points, %d labels", ErrShape, n, m)
	}
	C := classes
	present := map[int]bool{}
	nl := 0
	add := func(i, c int) error {
		if c < 0 {
			return fmt.Errorf("%w: point %d has label %d (classes are ≥ 0, %d = unlabelled)", ErrBadLabel, i, c, learner.Unlabeled)
		}
		if classes > 0 && c >= classes {
			return fmt.Errorf("%w: point %d has label %d, Classes = %d", ErrBadLabel, i, c, classes)
		}
		present[c] = true
		if classes == 0 {
			C = max(C, c+1)
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if sets != nil {
			if len(sets[i]) == 0 {
				continue
			}
			for _, c := range sets[i] {
				if err := add(i, c); err != nil {
					return nil, err
				}
			}
		} else {
			if y[i] == learner.Unlabeled {
				continue
			}
			if err := add(i, y[i]); err != nil {
				return nil, err
			}
		}
		p.labeled[i] = true
		nl++
	}
	if nl == 0 {
		return nil, ErrNoLabels
	}
	if nl == n && !allLabeled {
		return nil, fmt.Errorf("%w: all %d points carry labels, nothing to propagate to", ErrNoUnlabeled, n)
	}
	if C < 2 && !p.multi {
		return nil, fmt.Errorf("%w: only class 0 is labelled", ErrOneClass)
	}
	var missing []string
	for c := 0; c < C; c++ {
		if !present[c] {
			missing = append(missing, fmt.Sprint(c))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: class %s of 0..%d", ErrEmptyClass, strings.Join(missing, ", "), C-1)
	}
	p.C = C
	p.Y = make([]float64, n*C)
	for i := 0; i < n; i++ {
		if !p.labeled[i] {
			continue
		}
		if sets != nil {
			for _, c := range sets[i] {
				p.Y[i*C+c] = 1
			}
		} else {
			p.Y[i*C+y[i]] = 1
		}
	}
	return p, nil
}

// FirstClassWarning is the warning of a fit with Unreachable =
// UnreachableFirst that gave class 0 to points no label reaches; it wraps
// ErrUnreachable. Text names class 0 as its caller calls it.
type FirstClassWarning struct {
	Points []int // the points, increasing
}

func (w *FirstClassWarning) Error() string { return w.Text("class 0") }

// Unwrap returns ErrUnreachable.
func (w *FirstClassWarning) Unwrap() error { return ErrUnreachable }

// Text is the warning with class 0 called first (`class "A"`, say).
func (w *FirstClassWarning) Text(first string) string {
	return fmt.Sprintf("%v: %d points given %s, as scikit-learn does: %s", ErrUnreachable, len(w.Points), first, listInts(w.Points, 20))
}

// unreachable applies the policy to the points no label reaches.
func unreachable(on, labeled []bool, policy string) ([]int, []error, error) {
	var u []int
	for i, a := range on {
		if !a && !labeled[i] {
			u = append(u, i)
		}
	}
	if len(u) == 0 {
		return nil, nil, nil
	}
	list := listInts(u, 20)
	switch policy {
	case UnreachableUnlabeled:
		return u, []error{fmt.Errorf("%w: %d points left unlabelled: %s", ErrUnreachable, len(u), list)}, nil
	case UnreachableFirst:
		return u, []error{&FirstClassWarning{Points: u}}, nil
	}
	return nil, nil, fmt.Errorf("%w: %d points (components of the affinity graph without a labelled point): %s", ErrUnreachable, len(u), list)
}

func listInts(v []int, max int) string {
	var b strings.Builder
	for i, x := range v {
		if i == max {
			fmt.Fprintf(&b, ", ... (%d more)", len(v)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}
