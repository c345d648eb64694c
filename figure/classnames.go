package figure

import "strconv"

// ClassNames are the names a legend gives classes: "class N" for a class
// whose name N is a number, else its name.
func ClassNames(classes []string) []string {
	out := make([]string, len(classes))
	for c, name := range classes {
		out[c] = name
		if _, err := strconv.ParseFloat(name, 64); err == nil {
			out[c] = "class " + name
		}
	}
	return out
}
