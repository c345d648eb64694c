package hclust

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"
)

// BenchmarkLargeAverage20k is the memory target: average linkage on
// 20 000 points (condensed input 1.6 GB, working matrix 3.2 GB) within
// 24 GiB. It needs ~5 GB and a minute, so it runs only with
// HCLUST_LARGE=1:
//
//	HCLUST_LARGE=1 /usr/bin/time -v go test -run '^$' -bench LargeAverage20k -benchtime 1x ./hclust
func BenchmarkLargeAverage20k(b *testing.B) {
	if os.Getenv("HCLUST_LARGE") == "" {
		b.Skip("set HCLUST_LARGE=1 (needs ~5 GB)")
	}
	n := 20000
	d := pdist(benchPoints(n, 10, 0))
	t0 := time.Now()
	tr, err := Linkage(context.Background(), d, Average)
	if err != nil {
		b.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.Logf("average linkage, n = %d: %v; Go heap obtained from the OS %.2f GB", n, time.Since(t0), float64(ms.HeapSys)/1e9)
	if err := tr.Validate(); err != nil {
		b.Fatal(err)
	}
}
