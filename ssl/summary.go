package ssl

import "math"

// Summary is one method's (learner × kernel) accuracy over the splits of
// an evaluation, as arbor eval's table reports it.
type Summary struct {
	Learner, Kernel string
	// Splits is the number of results summarised.
	Splits int
	// Mean and Std are the accuracy in percent: the mean and the sample
	// standard deviation (ddof = 1, as the reference report; 0 for one
	// split).
	Mean, Std float64
	// FitS is the mean time in the learner per split, in seconds.
	FitS float64
	// Unreached sums Result.Unreached over the splits.
	Unreached int
}

// Summarize summarises res per (learner, kernel), in the order the methods
// first appear.
func Summarize(res []Result) []Summary {
	type key struct{ learner, kernel string }
	var order []key
	acc := map[key][]float64{}
	secs := map[key]float64{}
	unreached := map[key]int{}
	for _, r := range res {
		k := key{r.Learner, r.Kernel}
		if _, ok := acc[k]; !ok {
			order = append(order, k)
		}
		acc[k] = append(acc[k], 100*r.Accuracy)
		secs[k] += r.FitS
		unreached[k] += r.Unreached
	}
	out := make([]Summary, len(order))
	for i, k := range order {
		a := acc[k]
		m, s := MeanStd(a)
		out[i] = Summary{Learner: k.learner, Kernel: k.kernel, Splits: len(a), Mean: m, Std: s, FitS: secs[k] / float64(len(a)), Unreached: unreached[k]}
	}
	return out
}

// BEPSummary is one method's breakeven points over the splits: the means,
// in percent, of the micro- and macro-averaged breakeven.
type BEPSummary struct {
	Learner, Kernel string
	Splits          int
	Micro, Macro    float64
}

// SummarizeBEP summarises res per (learner, kernel), in the order the
// methods first appear.
func SummarizeBEP(res []BEPResult) []BEPSummary {
	type key struct{ learner, kernel string }
	var order []key
	micro, macro := map[key][]float64{}, map[key][]float64{}
	for _, r := range res {
		k := key{r.Learner, r.Kernel}
		if _, ok := micro[k]; !ok {
			order = append(order, k)
		}
		micro[k], macro[k] = append(micro[k], 100*r.MicroBEP), append(macro[k], 100*r.MacroBEP)
	}
	out := make([]BEPSummary, len(order))
	for i, k := range order {
		mi, _ := MeanStd(micro[k])
		ma, _ := MeanStd(macro[k])
		out[i] = BEPSummary{Learner: k.learner, Kernel: k.kernel, Splits: len(micro[k]), Micro: mi, Macro: ma}
	}
	return out
}

// BestBEP returns the index of the summary with the highest mean of its
// micro and macro breakeven (the first on ties), -1 for none.
func BestBEP(sum []BEPSummary) int {
	best, at := -1.0, -1
	for i, s := range sum {
		if v := (s.Micro + s.Macro) / 2; v > best {
			best, at = v, i
		}
	}
	return at
}

// MeanStd returns the mean of a and its sample standard deviation
// (ddof = 1; 0 for fewer than two values).
func MeanStd(a []float64) (float64, float64) {
	var m float64
	for _, v := range a {
		m += v
	}
	m /= float64(len(a))
	var s float64
	for _, v := range a {
		s += (v - m) * (v - m)
	}
	if len(a) < 2 {
		return m, 0
	}
	return m, math.Sqrt(s / float64(len(a)-1))
}
