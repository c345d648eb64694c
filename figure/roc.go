package figure

// ROC draws a ROC curve, the true against the false positive rates, named
// name in the legend, beside the diagonal of chance, titled title.
func ROC(fpr, tpr []float64, name, title string) (*Figure, error) {
	return Line([]Series{
		{Name: name, X: fpr, Y: tpr},
		{Name: "chance", X: []float64{0, 1}, Y: []float64{0, 1}},
	}, LineOptions{Title: title, XLabel: "false positive rate", YLabel: "true positive rate"})
}
