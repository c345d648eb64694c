package dataset

import (
	"math"
	"slices"
	"strconv"
)

// sortClasses orders the distinct label strings raw and returns the class
// names and, for each raw index, its class index.
//
// When every name parses as a finite number, names are replaced by the
// canonical form of their value (strconv 'g', shortest; "-0" becomes "0"),
// equal values merge into one class, and classes sort by value. Otherwise
// the names are kept and sorted lexically (byte order).
func sortClasses(raw []string) (classes []string, remap []int) {
	remap = make([]int, len(raw))
	if len(raw) == 0 {
		return nil, remap
	}
	vals := make([]float64, len(raw))
	numeric := true
	for i, s := range raw {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			numeric = false
			break
		}
		if v == 0 {
			v = 0 // drop the sign of -0
		}
		vals[i] = v
	}
	if numeric {
		uniq := slices.Clone(vals)
		slices.Sort(uniq)
		uniq = slices.Compact(uniq)
		classes = make([]string, len(uniq))
		for k, v := range uniq {
			classes[k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		for i, v := range vals {
			remap[i], _ = slices.BinarySearch(uniq, v)
		}
		return classes, remap
	}
	classes = slices.Clone(raw)
	slices.Sort(classes)
	for i, s := range raw {
		remap[i], _ = slices.BinarySearch(classes, s)
	}
	return classes, remap
}
