package kernel

// Bytes estimates the peak memory of building sp's N×N kernel matrix over
// n rows (BuildAll): gonum's symmetric matrices store all N² float64
// entries; the cluster kernels add a condensed distance matrix (N²/2) and
// the ultrametric, the graph variants a geodesic matrix, ISOMAP an
// eigendecomposition (its vectors and workspace). Estimates, within about
// a third of the measured peak. Bytes32 is the float32 build's.
func Bytes(sp Spec, n int) float64 {
	nn := 8 * float64(n) * float64(n)
	switch sp.Kind {
	case KindPoint:
		return nn
	case KindHCK:
		if sp.Graph != nil {
			return 2.5 * nn
		}
		return 1.5 * nn
	case KindISOMAP:
		return 4 * nn
	case KindConnectivity:
		// pdist (N²/2), single linkage's transposed copy when heights tie
		// (N²/2), the ultrametric: measured 1.6·8N² on satellite
		return 2 * nn
	}
	return 3 * nn
}
