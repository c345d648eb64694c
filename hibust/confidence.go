package hibust

import "math"

// Posterior returns P(j | x_i) of paper 003 Eq. 5 for row i: the posterior
// of component j of the Gaussian mixture read off the partition, with
// identity covariances, means at the cluster centroids (in the kernel's
// feature space) and mixing weights π_j = |C_j|/n,
//
//	P(j | x_i) = π_j exp(−½‖x_i − μ_j‖²) / Σ_m π_m exp(−½‖x_i − μ_m‖²),
//
// computed with the log-sum-exp shift so that far rows do not underflow.
// dst, if it has length K(), is filled and returned; nil allocates.
func (p *Partition) Posterior(dst []float64, i int) []float64 {
	k := p.K()
	if len(dst) != k {
		dst = make([]float64, k)
	}
	n := float64(len(p.Assign))
	top := math.Inf(-1)
	for j := 0; j < k; j++ {
		dst[j] = math.Log(float64(p.Size[j])/n) - p.Dist2(i, j)/2
		top = max(top, dst[j])
	}
	var s float64
	for j := range dst {
		dst[j] = math.Exp(dst[j] - top)
		s += dst[j]
	}
	for j := range dst {
		dst[j] /= s
	}
	return dst
}

// Confident applies the confidence labelling of paper 003 §3.2 (Step 2):
// every unlabelled row whose most probable component j has posterior
// P(j | x_i) ≥ theta gets the class of cluster j. It returns the rows
// labelled this way (ascending) and, for each, its component j; y is not
// modified.
func (p *Partition) Confident(y []int, theta float64) (rows, comp []int) {
	post := make([]float64, p.K())
	for i, c := range y {
		if c != Unlabeled {
			continue
		}
		p.Posterior(post, i)
		best := 0
		for j, v := range post {
			if v > post[best] {
				best = j
			}
		}
		if post[best] >= theta {
			rows = append(rows, i)
			comp = append(comp, best)
		}
	}
	return rows, comp
}
