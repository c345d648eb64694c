package learner

import (
	"flag"
	"strconv"
	"strings"
)

// List names the registered families for help texts and error messages,
// in Rank order: exact lists those with a kernel-matrix form, joined by
// ", " and by last before the last one ("svm, knn or hibust" with last
// " or "), and landmarks, joined by ", ", those that run on landmark
// features only. With help, a family is named by its Help text
// ("lp (label propagation)"), else by its Name.
func List(help bool, last string) (exact, landmarks string) {
	var ex, lm []string
	for _, e := range Entries() {
		n := e.Name
		if help {
			n = e.Help
		}
		if e.LandmarksOnly {
			lm = append(lm, n)
		} else {
			ex = append(ex, n)
		}
	}
	if len(ex) > 1 {
		exact = strings.Join(ex[:len(ex)-1], ", ") + last + ex[len(ex)-1]
	} else {
		exact = strings.Join(ex, "")
	}
	return exact, strings.Join(lm, ", ")
}

// Family returns the registered family name of a learner name (an alias,
// in any case, with surrounding space), or the name lower-cased and
// trimmed when no family has it.
func Family(name string) string {
	if e, ok := Lookup(name); ok {
		return e.Name
	}
	return strings.TrimSpace(strings.ToLower(name))
}

// AddFlags defines a flag on fs for each registered setting (Flags): a
// float64, int, bool or string flag as its Kind says, with its default
// and usage. FlagValues reads them.
func AddFlags(fs *flag.FlagSet) {
	flags, _ := Flags()
	for _, f := range flags {
		switch f.Kind {
		case Float:
			v, _ := strconv.ParseFloat(f.Default, 64)
			fs.Float64(f.Name, v, f.Usage)
		case Int:
			v, _ := strconv.Atoi(f.Default)
			fs.Int(f.Name, v, f.Usage)
		case Bool:
			fs.Bool(f.Name, f.Default == "true", f.Usage)
		default:
			fs.String(f.Name, f.Default, f.Usage)
		}
	}
}

// FlagValues reads the settings from the flags AddFlags defined on fs;
// seed is its Seed.
func FlagValues(fs *flag.FlagSet, seed uint64) Values { return flagValues{fs, seed} }

type flagValues struct {
	fs   *flag.FlagSet
	seed uint64
}

func (v flagValues) get(name string) any { return v.fs.Lookup(name).Value.(flag.Getter).Get() }

func (v flagValues) Float(name string) float64 { return v.get(name).(float64) }
func (v flagValues) Int(name string) int       { return v.get(name).(int) }
func (v flagValues) String(name string) string { return v.get(name).(string) }
func (v flagValues) Bool(name string) bool     { return v.get(name).(bool) }
func (v flagValues) Seed() uint64              { return v.seed }

// Build builds the learners of names, comma-separated family names or
// aliases (empty items skipped), from the settings v, through the
// registry. Errors wrap ErrSettings: an unknown name ("--learner: unknown
// learner …" with the registered names), no name at all, and each
// family's New's.
func Build(names string, v Values) ([]Learner, error) {
	var out []Learner
	for _, name := range strings.Split(names, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		e, ok := Lookup(name)
		if !ok {
			exact, lm := List(false, ", ")
			return nil, Settingsf("--learner: unknown learner %q (%s; %s with --landmarks)", name, exact, lm)
		}
		ls, err := e.New(strings.TrimSpace(strings.ToLower(name)), v)
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	if len(out) == 0 {
		return nil, Settingsf("--learner is empty")
	}
	return out, nil
}
