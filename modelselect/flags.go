package modelselect

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
)

// Grids makes the grids of a search from settings as text, as arbor
// search takes them: learners, comma-separated registered family names
// (blank items skipped; not the families on landmark features only), and
// the settings given by flag name, each a list of values (ParseValues:
// "0.1,1,10", "1-15"). Each family's grid takes the settings it reads
// (learner.Entry.Flags); the others keep their defaults; the grids have
// no Kernels yet. Errors wrap learner.ErrSettings and name the flag: an
// unknown family, none, a bad list, a setting no family reads.
func Grids(learners string, settings map[string]string) ([]Grid, error) {
	var grids []Grid
	read := map[string]bool{}
	for _, name := range strings.Split(learners, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		ent, ok := learner.Lookup(name)
		if !ok || ent.LandmarksOnly {
			exact, _ := learner.List(false, ", ")
			return nil, learner.Settingsf("--learner: unknown learner %q (%s)", name, exact)
		}
		g := Grid{Learner: ent.Name, Params: map[string][]string{}}
		for _, f := range ent.Flags {
			if text, ok := settings[f.Name]; ok {
				vals, err := ParseValues(text)
				if err != nil {
					return nil, learner.Settingsf("--%s: %v", f.Name, err)
				}
				g.Params[f.Name] = vals
				read[f.Name] = true
			}
		}
		grids = append(grids, g)
	}
	if len(grids) == 0 {
		return nil, learner.Settingsf("--learner is empty")
	}
	for _, name := range slices.Sorted(maps.Keys(settings)) {
		if !read[name] {
			_, users := learner.Flags()
			return nil, learner.Settingsf("--%s has no effect on --learner %s (it is for %s)", name, learners, strings.Join(users[name], ", "))
		}
	}
	return grids, nil
}

// WriteTable writes the search's table to w: for each candidate in grid
// order its rank, setting (Candidate.String), and the mean and
// population std of its scores over the folds; then the best candidate.
func (r *Result) WriteTable(w io.Writer) error {
	rows := r.Rows()
	text := make([]string, len(rows))
	width := len("setting")
	for i, row := range rows {
		text[i] = row.Candidate.String()
		width = max(width, len(text[i]))
	}
	fmt.Fprintf(w, "%4s  %-*s  %8s  %8s\n", "rank", width, "setting", "mean", "std")
	for i, row := range rows {
		fmt.Fprintf(w, "%4d  %-*s  %8.4f  %8.4f\n", row.Rank, width, text[i], float64(row.Mean), float64(row.Std))
	}
	b := rows[r.Best]
	_, err := fmt.Fprintf(w, "\nbest: %s (mean %.4f, std %.4f; the first of rank 1 in grid order)\n", text[r.Best], float64(b.Mean), float64(b.Std))
	return err
}

// WriteJSON writes one JSON object per candidate to w, in grid order:
// its Row (scikit-learn's cv_results_ names).
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, row := range r.Rows() {
		if err := enc.Encode(row); err != nil {
			return err
		}
	}
	return nil
}

// AddListFlags defines on fs a flag per registered learner setting
// (learner.Flags) that takes a list of values to search, as arbor search
// does (a bool setting given alone, --soft, is "true"), and returns the
// map each flag given records its text in by name: after fs.Parse, the
// settings for Grids.
func AddListFlags(fs *flag.FlagSet) map[string]string {
	given := map[string]string{}
	flags, _ := learner.Flags()
	for _, f := range flags {
		fs.Var(&listFlag{name: f.Name, text: f.Default, isBool: f.Kind == learner.Bool, given: given}, f.Name, f.Usage+"; a comma-separated list (integer ranges a-b) searches each value")
	}
	return given
}

// listFlag is a learner setting's list of values, recorded in given when
// set.
type listFlag struct {
	name, text string
	isBool     bool
	given      map[string]string
}

func (l *listFlag) String() string     { return l.text }
func (l *listFlag) Set(s string) error { l.text, l.given[l.name] = s, s; return nil }
func (l *listFlag) IsBoolFlag() bool   { return l.isBool }

// SetKernels gives every grid the kernels specs (Grid.Kernels, as their
// spec text).
func SetKernels(grids []Grid, specs []kernel.Spec) {
	for i := range grids {
		for _, s := range specs {
			grids[i].Kernels = append(grids[i].Kernels, s.String())
		}
	}
}
