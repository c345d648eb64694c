package kernel

import (
	"fmt"
	"strconv"
	"strings"
)

// PointText returns the spec text of a built-in point kernel ("linear",
// "poly:A:B:DEGREE", "rbf:GAMMA", "laplacian:GAMMA", "exponential:GAMMA"),
// the form saved models use, and false for any other kernel. Unlike
// Spec.String it does not consult the registry, so a package that only
// saves point kernels (knn) does not link the data-dependent kernels.
func PointText(k Kernel) (string, bool) {
	switch k := k.(type) {
	case Linear:
		return "linear", true
	case Poly:
		return "poly:" + ftoa(k.A) + ":" + ftoa(k.B) + ":" + strconv.Itoa(k.Degree), true
	case RBF:
		return "rbf:" + ftoa(k.Gamma), true
	case Laplacian:
		return "laplacian:" + ftoa(k.Gamma), true
	case Exponential:
		return "exponential:" + ftoa(k.Gamma), true
	}
	return "", false
}

// ParsePoint reads the text PointText writes and checks the parameters.
// Errors: ErrUnknownKernel, ErrBadParam.
func ParsePoint(text string) (Kernel, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(text), ":")
	f := strings.Split(rest, ":")
	num := func(i int) (float64, error) {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return 0, fmt.Errorf("%w %q: %q is not a number", ErrUnknownKernel, text, f[i])
		}
		return v, nil
	}
	var k Kernel
	switch {
	case name == "linear" && rest == "":
		k = Linear{}
	case name == "poly" && len(f) == 3:
		a, err := num(0)
		if err != nil {
			return nil, err
		}
		b, err := num(1)
		if err != nil {
			return nil, err
		}
		d, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("%w %q: degree %q", ErrUnknownKernel, text, f[2])
		}
		k = Poly{A: a, B: b, Degree: d}
	case (name == "rbf" || name == "laplacian" || name == "exponential") && len(f) == 1 && rest != "":
		g, err := num(0)
		if err != nil {
			return nil, err
		}
		k = map[string]Kernel{"rbf": RBF{Gamma: g}, "laplacian": Laplacian{Gamma: g}, "exponential": Exponential{Gamma: g}}[name]
	default:
		return nil, fmt.Errorf("%w %q: want a built-in point kernel with its parameters", ErrUnknownKernel, text)
	}
	if err := Check(k); err != nil {
		return nil, err
	}
	return k, nil
}
