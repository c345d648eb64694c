package learner

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// ErrSettings marks settings a registered learner's New rejects (a
// value out of range, an unknown name): the caller's mistake, worded with
// the settings' flag names.
var ErrSettings = errors.New("learner settings")

// FlagKind is the type of a learner setting's value.
type FlagKind int

// The kinds of Flag.
const (
	Float FlagKind = iota
	Int
	String
	Bool
)

// Flag documents one setting a learner reads: its name (the command-line
// flag, --Name), kind, default value as text, and usage. Learners sharing
// a setting (svm and linsvm read C) declare the same Flag.
type Flag struct {
	Name    string
	Kind    FlagKind
	Default string
	Usage   string
}

// Values gives a learner's settings by flag name: as given on the command
// line, else the Flag's default. Seed is the run's seed.
type Values interface {
	Float(name string) float64
	Int(name string) int
	String(name string) string
	Bool(name string) bool
	Seed() uint64
}

// Entry registers one learner family.
type Entry struct {
	// Name is the family's name (--learner NAME); Aliases are other
	// accepted names.
	Name    string
	Aliases []string
	// Help names the family in lists, e.g. "lp (label propagation)".
	Help string
	// Rank orders the families in lists (help, errors): lower first.
	Rank int
	// Flags are the settings the family reads.
	Flags []Flag
	// LandmarksOnly: the family runs on landmark features only (it has
	// no kernel-matrix form).
	LandmarksOnly bool
	// New builds the family's learners from the settings (one or more:
	// knn with k 1-5 is five). name is the name it was asked by (an
	// alias, possibly). Errors wrap ErrSettings.
	New func(name string, v Values) ([]Learner, error)
	// Models reads the family's saved models by the name a saved
	// pipeline records for them (a family may save several kinds, or
	// none of its own: spreading saves propagate's).
	Models map[string]ModelCodec
}

// ModelCodec reads one kind of saved model (Load) and recognises its
// fitted models (Owns): see Codec.
type ModelCodec struct {
	Load func(r io.Reader) (Saver, error)
	Owns func(m Saver) bool
}

// Saver is a fitted model with a saved form: a Model, or a model on
// landmark features or points (an anchor graph).
type Saver interface {
	Save(w io.Writer) error
}

var (
	mu      sync.RWMutex
	entries []Entry
)

// Register adds a learner family; it panics on a duplicate name or alias
// or a Flag declared with another kind or default than a family before
// it (a programming error, found at start-up).
func Register(e Entry) {
	mu.Lock()
	defer mu.Unlock()
	if e.Name == "" || e.New == nil {
		panic("learner: Register without Name or New")
	}
	for _, o := range entries {
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if o.Name == n || slices.Contains(o.Aliases, n) {
				panic(fmt.Sprintf("learner: %q registered twice", n))
			}
		}
		for m := range e.Models {
			if _, ok := o.Models[m]; ok {
				panic(fmt.Sprintf("learner: model %q registered twice", m))
			}
		}
		for _, f := range e.Flags {
			for _, g := range o.Flags {
				if f.Name == g.Name && (f.Kind != g.Kind || f.Default != g.Default) {
					panic(fmt.Sprintf("learner: flag %q of %s differs from %s's", f.Name, e.Name, o.Name))
				}
			}
		}
	}
	entries = append(entries, e)
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// Entries returns the registered families in Rank order.
func Entries() []Entry {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(entries)
}

// Lookup returns the family named name or one of its aliases (case and
// surrounding space ignored).
func Lookup(name string) (Entry, bool) {
	name = strings.TrimSpace(strings.ToLower(name))
	mu.RLock()
	defer mu.RUnlock()
	for _, e := range entries {
		if e.Name == name || slices.Contains(e.Aliases, name) {
			return e, true
		}
	}
	return Entry{}, false
}

// ErrModel: no registered learner saves models of the name asked.
var ErrModel = errors.New("no registered learner saves this model")

// Load reads a model saved under name (an Entry's Models key). Errors:
// ErrModel, and the loader's.
func Load(name string, r io.Reader) (Saver, error) {
	mu.RLock()
	var load func(io.Reader) (Saver, error)
	for _, e := range entries {
		if c, ok := e.Models[name]; ok {
			load = c.Load
		}
	}
	mu.RUnlock()
	if load == nil {
		return nil, fmt.Errorf("%w: %q", ErrModel, name)
	}
	return load(r)
}

// Flags returns every registered setting once (the first family's Flag of
// each name, in Rank order) and, for each name, the families that read it.
func Flags() ([]Flag, map[string][]string) {
	users := map[string][]string{}
	var out []Flag
	for _, e := range Entries() {
		for _, f := range e.Flags {
			if _, ok := users[f.Name]; !ok {
				out = append(out, f)
			}
			users[f.Name] = append(users[f.Name], e.Name)
		}
	}
	return out, users
}

// Settingsf returns an error that is ErrSettings (errors.Is) and reads
// as the message alone.
func Settingsf(format string, a ...any) error {
	return settingsError(fmt.Sprintf(format, a...))
}

type settingsError string

func (e settingsError) Error() string        { return string(e) }
func (e settingsError) Is(target error) bool { return target == ErrSettings }

// Settings shared by several learner families: each declares the same
// Flag.
var (
	CFlag       = Flag{Name: "C", Kind: Float, Default: "1", Usage: "svm, linsvm: soft-margin penalty C"}
	TolFlag     = Flag{Name: "tol", Kind: Float, Default: "0", Usage: "tolerance (0 = each learner's default: svm 1e-3; linsvm 1e-4; lp/spreading iterative 1e-3 on Σ|ΔF|, closed 1e-10 relative residual)"}
	MaxIterFlag = Flag{Name: "max-iter", Kind: Int, Default: "0", Usage: "iteration limit (0 = each learner's default)"}
)

// PositiveC returns v.Float("C") when it is positive and finite.
func PositiveC(v Values) (float64, error) {
	c := v.Float("C")
	if !(c > 0) || c > 1e308 {
		return 0, Settingsf("--C must be positive, got %v", c)
	}
	return c, nil
}

// Codec makes the ModelCodec of a package's model type M from its Load
// function.
func Codec[M Saver](load func(io.Reader) (M, error)) ModelCodec {
	return ModelCodec{
		Load: func(r io.Reader) (Saver, error) {
			m, err := load(r)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
		Owns: func(m Saver) bool { _, ok := m.(M); return ok },
	}
}

// ModelName returns the name a fitted model is saved under (the Models
// key of the family that owns it); ok is false when no registered family
// does.
func ModelName(m Saver) (name string, ok bool) {
	for _, e := range Entries() {
		for n, c := range e.Models {
			if c.Owns != nil && c.Owns(m) {
				return n, true
			}
		}
	}
	return "", false
}
