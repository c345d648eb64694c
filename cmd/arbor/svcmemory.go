package main

// svcBytes bounds support vector clustering of m rows with d features: it
// forms no N×N matrix. The SVDD computes kernel columns on demand into its
// float32 column cache (svm.SVDD, default 200 MiB, never more than the
// 4m² of the whole matrix); the labelling tests pairs on the fly with a
// union-find (O(m) memory) and keeps distance and power tables capped at
// 256 + 128 MiB (svcluster/segment.go), filled only up to what the run
// needs; the rest is the points and O(m) vectors. (The estimate was 8m²,
// as if the kernel matrix were stored: 3.2 GB at m = 20,000, where the run
// peaked at 55 MB.)
func svcBytes(m, d int) float64 {
	mf := float64(m)
	return 8*mf*float64(d+16) + min(4*mf*mf, 200<<20) + min(8*mf*mf, 384<<20)
}
