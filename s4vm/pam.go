package s4vm

import "math"

// pam partitions the rows of the m×m dissimilarity matrix d (row-major)
// into k groups by Partitioning Around Medoids (Kaufman & Rousseeuw 1990,
// ch. 2), the BUILD phase then the SWAP phase as R's cluster::pam runs
// them (BUILD takes the last of equal gains, SWAP the first of equal
// improvements and only improvements beyond 16·ε·|cost|; these tie rules
// are our reading of it — the fixtures check the partitions, which they
// did not change there). It returns
// the group of every row (0..k−1, groups numbered by increasing medoid
// row) and the medoid rows in increasing order. A row goes to its nearest
// medoid, the first on ties. Cost O(k·m²) per SWAP pass.
func pam(d []float64, m, k int) (group []int, medoids []int) {
	isMed := make([]bool, m)
	near := make([]float64, m)   // distance to the nearest medoid
	second := make([]float64, m) // to the second nearest
	big := 0.0
	for _, v := range d {
		big = max(big, v)
	}
	big = big*1.1 + 1
	for j := range near {
		near[j] = big
	}
	// BUILD.
	for range k {
		best, bi := 0.0, -1
		for i := range m {
			if isMed[i] {
				continue
			}
			g := 0.0
			for j := range m {
				if c := near[j] - d[i*m+j]; c > 0 {
					g += c
				}
			}
			if bi < 0 || best <= g {
				best, bi = g, i
			}
		}
		isMed[bi] = true
		for j := range m {
			near[j] = min(near[j], d[bi*m+j])
		}
	}
	// SWAP.
	for {
		// nearest and second nearest medoid distances
		cost := 0.0
		for j := range m {
			n1, n2 := big, big
			for i := range m {
				if !isMed[i] {
					continue
				}
				v := d[i*m+j]
				if v < n1 {
					n1, n2 = v, n1
				} else if v < n2 {
					n2 = v
				}
			}
			near[j], second[j] = n1, n2
			cost += n1
		}
		bestDz, bh, bi := math.Inf(1), -1, -1
		for h := range m {
			if isMed[h] {
				continue
			}
			for i := range m {
				if !isMed[i] {
					continue
				}
				dz := 0.0
				for j := range m {
					dij, dhj := d[i*m+j], d[h*m+j]
					if dij == near[j] {
						// j may lose its medoid i.
						small := min(second[j], dhj)
						dz += small - near[j]
					} else if dhj < near[j] {
						dz += dhj - near[j]
					}
				}
				if dz < bestDz {
					bestDz, bh, bi = dz, h, i
				}
			}
		}
		if !(bestDz < -16*epsilon*math.Abs(cost)) || bh < 0 {
			break
		}
		isMed[bi], isMed[bh] = false, true
	}
	for i := range m {
		if isMed[i] {
			medoids = append(medoids, i)
		}
	}
	group = make([]int, m)
	for j := range m {
		bg, bd := 0, math.Inf(1)
		for g, i := range medoids {
			if v := d[i*m+j]; v < bd {
				bg, bd = g, v
			}
		}
		group[j] = bg
	}
	return group, medoids
}

const epsilon = 0x1p-52 // DBL_EPSILON
