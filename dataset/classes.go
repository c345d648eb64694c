package dataset

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// sortClasses orders the distinct label strings raw and returns the class
// names and, for each raw index, its class index.
//
// When every name is a decimal number (strconv.ParseFloat syntax without
// hexadecimal, Inf or NaN), names are compared by their exact value, never
// through float64: "1", "1.0", "+1" and "1e0" are one class, but
// "12345678901234567" and "12345678901234568" are two. Each class is named
// by the canonical form of its value: integers in plain digits
// ("100000000000000000000000", never "1e+23"), other values in the
// shortest form that reads back to the same exact value ("0.5", "1e-30"),
// "-0" as "0"; classes sort by value. Otherwise the names are kept and
// sorted lexically (byte order).
func sortClasses(raw []string) (classes []string, remap []int) {
	remap = make([]int, len(raw))
	if len(raw) == 0 {
		return nil, remap
	}
	vals := make([]*big.Rat, len(raw))
	numeric := true
	for i, s := range raw {
		v, ok := exactDecimal(s)
		if !ok {
			numeric = false
			break
		}
		vals[i] = v
	}
	if numeric {
		order := make([]int, len(raw))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return vals[a].Cmp(vals[b]) })
		for k, i := range order {
			if k == 0 || vals[i].Cmp(vals[order[k-1]]) != 0 {
				classes = append(classes, canonicalDecimal(vals[i]))
			}
			remap[i] = len(classes) - 1
		}
		return classes, remap
	}
	classes = slices.Clone(raw)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	for i, s := range raw {
		remap[i], _ = slices.BinarySearch(classes, s)
	}
	return classes, remap
}

// exactDecimal parses a decimal number exactly ([+-]digits[.digits][e[+-]digits]).
func exactDecimal(s string) (*big.Rat, bool) {
	if s == "" || len(s) > 400 {
		return nil, false
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return nil, false
	}
	digits := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
		default:
			return nil, false
		}
	}
	if !digits || body[0] == 'e' || body[0] == 'E' {
		return nil, false
	}
	// Exponents beyond float64's range would make big.Rat allocate a huge
	// power of ten; such labels are names, not numbers.
	if k := strings.IndexAny(body, "eE"); k >= 0 {
		e := strings.TrimLeft(body[k+1:], "+-")
		if len(e) > 3 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// canonicalDecimal names an exact decimal value: plain digits for an
// integer, else the shortest float64 form when it reads back exactly, else
// the exact decimal expansion.
func canonicalDecimal(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	g := strconv.FormatFloat(f, 'g', -1, 64)
	if back, ok := new(big.Rat).SetString(g); ok && back.Cmp(r) == 0 {
		return g
	}
	// A finite decimal (it was read from one): the denominator is
	// 2^a·5^b, and max(a, b) digits after the point are exact.
	den := new(big.Int).Set(r.Denom())
	a, b := 0, 0
	two, five, q, m := big.NewInt(2), big.NewInt(5), new(big.Int), new(big.Int)
	for {
		if q.DivMod(den, two, m); m.Sign() == 0 {
			den.Set(q)
			a++
			continue
		}
		if q.DivMod(den, five, m); m.Sign() == 0 {
			den.Set(q)
			b++
			continue
		}
		break
	}
	digits := max(a, b)
	s := r.FloatString(digits)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// SortClasses returns the distinct class names of names (canonical, as a
// data set's Classes holds them) in the order a data set read from a file
// with those labels has its Classes: numeric names by value, others
// lexically. The classes of a file read in parts are the sorted union of
// the parts' Classes.
func SortClasses(names []string) []string {
	classes, _ := sortClasses(names)
	return classes
}
