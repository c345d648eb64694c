package kernel

import (
	"flag"
	"math"
	"strconv"
	"strings"
)

// AddFlags defines on fs the flag --kernel (a spec or a comma-separated
// list of specs, default def) and a flag per parameter of Params, typed
// as the parameter and with its default (a float default that does not
// parse is NaN: unset). FlagSpecs reads them.
func AddFlags(fs *flag.FlagSet, def string) {
	fs.String("kernel", def, "kernel: "+strings.Join(Names(), ", ")+", or a spec such as rbf:0.5, hck:average, hckg:average:knn:7 (comma-separated list where several are allowed)")
	for _, p := range Params() {
		switch p.Type {
		case "float":
			v, err := strconv.ParseFloat(p.Default, 64)
			if err != nil {
				v = math.NaN()
			}
			fs.Float64(p.Name, v, p.Usage)
		case "int":
			v, _ := strconv.Atoi(p.Default)
			fs.Int(p.Name, v, p.Usage)
		default:
			fs.String(p.Name, p.Default, p.Usage)
		}
	}
}

// FlagSpecs expands the --kernel list of fs, parsed after AddFlags, with
// the parameter flags (ExpandList): the flag form (--kernel rbf --gamma
// 0.5) and the spec form (--kernel rbf:0.5) alike. A parameter flag given
// that no listed kernel reads is an error.
func FlagSpecs(fs *flag.FlagSet) ([]Spec, error) {
	var set []string
	fs.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	value := func(name string) string { return fs.Lookup(name).Value.String() }
	return ExpandList(value("kernel"), value, set)
}
