package metrics_test

import (
	"fmt"

	"github.com/arbor-ml/arbor/metrics"
)

func Example() {
	truth := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	pred := []int{0, 0, 1, 1, 1, 1, 2, 2, 0}
	acc, _ := metrics.Accuracy(truth, pred)
	prf, _ := metrics.PRF(truth, pred, 3)
	fmt.Printf("accuracy %.3f\n", acc)
	fmt.Printf("precision %.3f recall %.3f\n", prf.Precision, prf.Recall)

	clusters := []int{7, 7, 7, 3, 3, 3, 3, -1, -1} // -1 = noise; scikit-learn: ARI 0.6429, NMI 0.7860
	ari, _ := metrics.ARI(truth, clusters)
	nmi, _ := metrics.NMI(truth, clusters)
	mis, match, _ := metrics.Misclassified(truth, clusters)
	fmt.Printf("ARI %.3f NMI %.3f misclassified %d match %v\n", ari, nmi, mis, match)
	// Output:
	// accuracy 0.778
	// precision [0.667 0.750 1.000] recall [0.667 1.000 0.667]
	// ARI 0.643 NMI 0.786 misclassified 3 match map[3:1 7:0]
}
