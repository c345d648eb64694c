package main

import (
	"errors"
	"flag"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// learnerFlags select and configure learners: --learner and every
// registered learner family's flags (package learner's registry).
type learnerFlags struct {
	learnerUsage string // classify takes one learner, eval a list
	learner      string

	floats map[string]*float64
	ints   map[string]*int
	strs   map[string]*string
	bools  map[string]*bool
	seed   uint64 // the command's --seed
}

// learnerList names the registered families for --learner's usage and
// errors: "svm, knn, lp (label propagation), spreading, s4vm or hibust"
// (last joined by last), and those that need --landmarks.
func learnerList(help bool, last string) (exact, landmarks string) {
	var ex, lm []string
	for _, e := range learner.Entries() {
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

func (l *learnerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.learner, "learner", "svm", l.learnerUsage)
	l.floats, l.ints, l.strs, l.bools = map[string]*float64{}, map[string]*int{}, map[string]*string{}, map[string]*bool{}
	flags, _ := learner.Flags()
	for _, f := range flags {
		switch f.Kind {
		case learner.Float:
			v, _ := strconv.ParseFloat(f.Default, 64)
			l.floats[f.Name] = fs.Float64(f.Name, v, f.Usage)
		case learner.Int:
			v, _ := strconv.Atoi(f.Default)
			l.ints[f.Name] = fs.Int(f.Name, v, f.Usage)
		case learner.Bool:
			l.bools[f.Name] = fs.Bool(f.Name, f.Default == "true", f.Usage)
		default:
			l.strs[f.Name] = fs.String(f.Name, f.Default, f.Usage)
		}
	}
}

// learner.Values of the flags.
func (l *learnerFlags) Float(name string) float64 { return *l.floats[name] }
func (l *learnerFlags) Int(name string) int       { return *l.ints[name] }
func (l *learnerFlags) String(name string) string { return *l.strs[name] }
func (l *learnerFlags) Bool(name string) bool     { return *l.bools[name] }
func (l *learnerFlags) Seed() uint64              { return l.seed }

// learners builds the learners the flags name through the registry.
func (l *learnerFlags) learners() ([]learner.Learner, error) {
	var out []learner.Learner
	for _, name := range strings.Split(l.learner, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		e, ok := learner.Lookup(name)
		if !ok {
			exact, lm := learnerList(false, ", ")
			return nil, usageError("--learner: unknown learner %q (%s; %s with --landmarks)", name, exact, lm)
		}
		ls, err := e.New(strings.TrimSpace(strings.ToLower(name)), l)
		if errors.Is(err, learner.ErrSettings) {
			return nil, usageError("%v", err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	if len(out) == 0 {
		return nil, usageError("--learner is empty")
	}
	return out, nil
}

// outputFlagUsers are classify's output flags of one learner family.
var outputFlagUsers = map[string][]string{"tree": {"hibust"}, "dendrogram": {"hibust"}}

// learnerFamily maps a --learner name to its registered family's name.
func learnerFamily(name string) string {
	if e, ok := learner.Lookup(name); ok {
		return e.Name
	}
	return strings.TrimSpace(strings.ToLower(name))
}

// checkLearnerFlags fails when a learner flag given on the command line is
// read by none of the chosen learners, or a kernel flag is given while no
// chosen learner uses a kernel (usesKernel).
func checkLearnerFlags(fs *flag.FlagSet, learnerList string, usesKernel bool) error {
	var fams []string
	for _, n := range strings.Split(learnerList, ",") {
		if f := learnerFamily(n); f != "" {
			fams = append(fams, f)
		}
	}
	_, users := learner.Flags()
	for k, v := range outputFlagUsers {
		users[k] = v
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if users, ok := users[f.Name]; ok {
			for _, u := range users {
				if slices.Contains(fams, u) {
					return
				}
			}
			err = usageError("--%s has no effect on --learner %s (it is for %s)", f.Name, learnerList, strings.Join(users, ", "))
			return
		}
		if !usesKernel && isKernelFlag(f.Name) {
			err = usageError("--%s has no effect on --learner %s: it uses no kernel (label propagation and spreading use --affinity; --affinity kernel uses the --kernel matrix)", f.Name, learnerList)
		}
	})
	return err
}

// allFree reports whether no learner uses a kernel.
func allFree(ls []learner.Learner) bool {
	for _, l := range ls {
		if ssl.UsesKernel(l) {
			return false
		}
	}
	return true
}

// settingsError makes a learner settings error (learner.ErrSettings) a
// usage error.
func settingsError(err error) error {
	if errors.Is(err, learner.ErrSettings) {
		return usageError("%v", err)
	}
	return err
}
