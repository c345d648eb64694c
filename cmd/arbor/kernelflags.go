package main

import (
	"flag"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
)

// kernelFlags turn the flag form (--kernel rbf --gamma 0.5) or the spec form
// (--kernel rbf:0.5, --kernel hckg:average:knn:5) into kernel specs. The
// flags and the bare-name expansion come from the kernel families'
// registrations (kernel.Register).
type kernelFlags struct {
	kernel string
	floats map[string]*float64
	ints   map[string]*int
	strs   map[string]*string

	fs *flag.FlagSet // to tell which flags were given
}

func (k *kernelFlags) register(fs *flag.FlagSet, def string) {
	k.fs = fs
	k.floats, k.ints, k.strs = map[string]*float64{}, map[string]*int{}, map[string]*string{}
	fs.StringVar(&k.kernel, "kernel", def, "kernel: "+strings.Join(kernel.Names(), ", ")+", or a spec such as rbf:0.5, hck:average, hckg:average:knn:7 (comma-separated list where several are allowed)")
	for _, f := range kernel.Flags() {
		switch f.Type {
		case "float":
			v, err := strconv.ParseFloat(f.Value, 64)
			if err != nil {
				v = math.NaN()
			}
			k.floats[f.Name] = fs.Float64(f.Name, v, f.Usage)
		case "int":
			v, _ := strconv.Atoi(f.Value)
			k.ints[f.Name] = fs.Int(f.Name, v, f.Usage)
		default:
			k.strs[f.Name] = fs.String(f.Name, f.Value, f.Usage)
		}
	}
}

// values returns the flag values for kernel.Expand.
func (k *kernelFlags) values() *kernel.FlagValues {
	vals := map[string]string{}
	for n, p := range k.floats {
		vals[n] = ftoa(*p)
	}
	for n, p := range k.ints {
		vals[n] = strconv.Itoa(*p)
	}
	for n, p := range k.strs {
		vals[n] = *p
	}
	var given []string
	if k.fs != nil {
		k.fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) })
	}
	return kernel.NewFlagValues(vals, given)
}

// specs expands the flags into spec strings and parses them.
func (k *kernelFlags) specs() ([]kernel.Spec, error) {
	var out []kernel.Spec
	fv := k.values()
	for _, name := range strings.Split(k.kernel, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		text, err := kernel.Expand(name, fv)
		if err != nil {
			return nil, usageError("%v", err)
		}
		sp, err := kernel.ParseSpec(text)
		if err != nil {
			return nil, usageError("--kernel: %v", err)
		}
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil, usageError("--kernel is empty")
	}
	if k.fs != nil {
		var params []string
		for _, f := range kernel.Flags() {
			params = append(params, f.Name)
		}
		var unused error
		k.fs.Visit(func(f *flag.Flag) {
			if unused == nil && slices.Contains(params, f.Name) && !fv.Used(f.Name) {
				hint := ""
				switch {
				case strings.Contains(k.kernel, ":"):
					hint = " (a spec such as rbf:0.5 or hck:average carries its own parameters)"
				case f.Name == "graph":
					hint = " (hck uses --graph with --distance graph)"
				}
				unused = usageError("--%s has no effect on --kernel %s%s", f.Name, k.kernel, hint)
			}
		})
		if unused != nil {
			return nil, unused
		}
	}
	return out, nil
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
