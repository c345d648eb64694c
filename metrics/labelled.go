package metrics

// Labelled returns the entries of y and pred at the rows where y holds a
// class (y[i] ≥ 0; a negative entry marks an unlabelled row), in row
// order: the pairs a clustering pred is compared on with classes y that
// only some rows have. pred has at least len(y) entries.
func Labelled(y, pred []int) (yl, pl []int) {
	for i, c := range y {
		if c >= 0 {
			yl = append(yl, c)
			pl = append(pl, pred[i])
		}
	}
	return yl, pl
}
