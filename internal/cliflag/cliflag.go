// Package cliflag parses and lists the flags of a flag.FlagSet the way the
// arbor command writes them: with two dashes, each flag at most once, and
// number flags finite.
package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Print lists the flags of fs as the README writes them: with two dashes,
// the value's kind, and the default unless it is "no value" (empty, zero,
// false or NaN, the flags' way of saying "not given").
func Print(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		var b strings.Builder
		fmt.Fprintf(&b, "  --%s", f.Name)
		plain := *f
		plain.Value = unwrap(f.Value)
		kind, usage := flag.UnquoteUsage(&plain)
		if kind != "" {
			b.WriteString(" " + kind)
		}
		b.WriteString("\n    \t")
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
		switch def := f.DefValue; def {
		case "", "0", "false", "NaN":
		default:
			if _, isString := unwrap(f.Value).(interface{ IsString() }); isString || kind == "string" {
				def = strconv.Quote(def)
			}
			fmt.Fprintf(&b, " (default %s)", def)
		}
		fmt.Fprintln(w, b.String())
	})
}

// onceValue refuses a second value for one flag: "--k 3 --k 5" is a
// mistake the flag package would silently resolve to 5.
type onceValue struct {
	flag.Value
	name  string
	set   bool
	twice *string // set to the name of a flag given twice
}

func (o *onceValue) Set(s string) error {
	if o.set {
		*o.twice = o.name
		return fmt.Errorf("given twice")
	}
	o.set = true
	return o.Value.Set(s)
}

// IsBoolFlag keeps "--quiet" working without a value.
func (o *onceValue) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (o *onceValue) Get() any {
	if g, ok := o.Value.(flag.Getter); ok {
		return g.Get()
	}
	return o.Value.String()
}

func unwrap(v flag.Value) flag.Value {
	if o, ok := v.(*onceValue); ok {
		return o.Value
	}
	return v
}

// Parse parses args with every flag of fs wrapped so that a repeated flag
// is an error, and rewrites the flag package's messages with the double
// dashes the help and README use, pointing at "NAME --help" (NAME is
// fs.Name()). On -h or --help it calls fs.Usage and returns flag.ErrHelp;
// fs's output receives nothing else.
func Parse(fs *flag.FlagSet, args []string) error {
	var twice string
	fs.VisitAll(func(f *flag.Flag) {
		if _, done := f.Value.(*onceValue); !done {
			f.Value = &onceValue{Value: f.Value, name: f.Name, twice: &twice}
		}
	})
	usage := fs.Usage
	fs.Usage = func() {}
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage()
		return err
	case twice != "":
		return fmt.Errorf("--%s given twice (each flag takes one value; lists are comma-separated)", twice)
	}
	msg := err.Error()
	for _, p := range []string{"flag -", "flag: -", "flag provided but not defined: -"} {
		msg = strings.Replace(msg, p, p+"-", 1)
	}
	return fmt.Errorf("%s (%s --help lists the flags)", msg, fs.Name())
}

// CheckFinite rejects a number flag given as NaN or ±Inf: "--gamma NaN"
// must not mean "not given".
func CheckFinite(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		g, ok := unwrap(f.Value).(flag.Getter)
		if !ok {
			return
		}
		if v, isFloat := g.Get().(float64); isFloat && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = fmt.Errorf("--%s %v: give a finite number", f.Name, v)
		}
	})
	return err
}

// Given reports whether the flag name was on the command line.
func Given(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
