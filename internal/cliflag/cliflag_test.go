package cliflag

import (
	"errors"
	"flag"
	"io"
	"math"
	"strings"
	"testing"
)

func newSet() (*flag.FlagSet, *int, *bool, *float64) {
	fs := flag.NewFlagSet("arbor cluster", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	k := fs.Int("k", 0, "number of clusters")
	q := fs.Bool("quiet", false, "no progress")
	h := fs.Float64("height", math.NaN(), "cut height")
	fs.String("linkage", "average", "the `METHOD`")
	fs.String("out", "labels.csv", "output file")
	return fs, k, q, h
}

// A flag given twice is refused, naming it with two dashes; a boolean flag
// still takes no value.
func TestParseOnce(t *testing.T) {
	fs, k, q, _ := newSet()
	if err := Parse(fs, []string{"--quiet", "--k", "3"}); err != nil || *k != 3 || !*q {
		t.Fatalf("err %v, k %d, quiet %v", err, *k, *q)
	}
	for args, want := range map[string]string{
		"--k 3 --k 4":           "--k given twice (each flag takes one value; lists are comma-separated)",
		"--quiet --quiet":       "--quiet given twice (each flag takes one value; lists are comma-separated)",
		"--nosuch 1":            "flag provided but not defined: --nosuch (arbor cluster --help lists the flags)",
		"--k x":                 `invalid value "x" for flag --k: parse error (arbor cluster --help lists the flags)`,
		"--linkage ward --k -1": "",
	} {
		fs, _, _, _ := newSet()
		err := Parse(fs, strings.Fields(args))
		if got := ""; err != nil {
			got = err.Error()
			if got != want {
				t.Errorf("%s: %q, want %q", args, got, want)
			}
		} else if want != "" {
			t.Errorf("%s: no error, want %q", args, want)
		}
	}
}

// Help calls the usage function once and returns flag.ErrHelp.
func TestParseHelp(t *testing.T) {
	fs, _, _, _ := newSet()
	calls := 0
	fs.Usage = func() { calls++ }
	if err := Parse(fs, []string{"--help"}); !errors.Is(err, flag.ErrHelp) || calls != 1 {
		t.Errorf("err %v, usage called %d times", err, calls)
	}
}

func TestCheckFinite(t *testing.T) {
	for args, want := range map[string]string{
		"--height NaN":  "--height NaN: give a finite number",
		"--height -Inf": "--height -Inf: give a finite number",
		"--height 2":    "",
		"":              "",
	} {
		fs, _, _, _ := newSet()
		if err := Parse(fs, strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		err := CheckFinite(fs)
		if (err == nil) != (want == "") || err != nil && err.Error() != want {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
}

func TestGiven(t *testing.T) {
	fs, _, _, _ := newSet()
	if err := Parse(fs, []string{"--k", "0"}); err != nil {
		t.Fatal(err)
	}
	if !Given(fs, "k") || Given(fs, "height") {
		t.Errorf("Given k %v, height %v", Given(fs, "k"), Given(fs, "height"))
	}
}

// Print writes each flag with two dashes and its kind, its usage on the
// next line, and the default unless it means "not given"; the defaults
// of plain string flags are quoted (a named kind, `METHOD`, is not). Wrapping by Parse does not change the listing.
func TestPrint(t *testing.T) {
	fs, _, _, _ := newSet()
	var before, after strings.Builder
	Print(&before, fs)
	if err := Parse(fs, nil); err != nil {
		t.Fatal(err)
	}
	Print(&after, fs)
	want := "  --height float\n    \tcut height\n" +
		"  --k int\n    \tnumber of clusters\n" +
		"  --linkage METHOD\n    \tthe METHOD (default average)\n" +
		"  --out string\n    \toutput file (default \"labels.csv\")\n" +
		"  --quiet\n    \tno progress\n"
	if before.String() != want || after.String() != want {
		t.Errorf("before Parse:\n%s\nafter:\n%s\nwant:\n%s", before.String(), after.String(), want)
	}
}
