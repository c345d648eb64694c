package dataset

import (
	"flag"
	"io"
	"testing"
)

// TestAddFlags: each flag sets its field; the defaults are the zero
// options but for the scale given and --impute none; skipped flags are
// not defined.
func TestAddFlags(t *testing.T) {
	var o Options
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.AddFlags(fs, "std")
	if o.Prep.Scale != "std" || o.Prep.Impute != "none" || o.Path != "" || o.NoHeader {
		t.Errorf("defaults %+v", o)
	}
	err := fs.Parse([]string{"--data", "d.csv", "--label", "y", "--id", "uid", "--ignore", "a,b", "--features", "1..3", "--no-header",
		"--sep", "tab", "--unlabeled-marker", "-1", "--scale", "minmax", "--impute", "mean"})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Path: "d.csv", Label: "y", ID: "uid", Ignore: "a,b", Features: "1..3", NoHeader: true, Sep: "tab", Unlabeled: "-1",
		Prep: Prep{Scale: "minmax", Impute: "mean"}}
	if o.Path != want.Path || o.Label != want.Label || o.ID != want.ID || o.Ignore != want.Ignore || o.Features != want.Features ||
		o.NoHeader != want.NoHeader || o.Sep != want.Sep || o.Unlabeled != want.Unlabeled || o.Prep.Scale != want.Prep.Scale || o.Prep.Impute != want.Prep.Impute {
		t.Errorf("got %+v, want %+v", o, want)
	}
	var p Options
	fs = flag.NewFlagSet("y", flag.ContinueOnError)
	p.AddFlags(fs, "none", "scale", "impute")
	if fs.Lookup("scale") != nil || fs.Lookup("impute") != nil || fs.Lookup("data") == nil || p.Prep.Scale != "" {
		t.Error("skipped flags defined")
	}
}
