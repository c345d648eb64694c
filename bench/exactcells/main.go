// Command exactcells measures hclust.ExactCells on a CSV: how many cells
// (clusters of the exact tree certified without the N×N matrix) remain
// for each neighbour count k, the time, and — when -check is set and the
// N×N matrix fits — whether the tree on the cells equals FromPoints's.
//
//	go run ./bench/exactcells -data /tmp/lmacc/letter.csv -label label -scale std -k 10,20,40
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
)

func main() {
	data := flag.String("data", "", "CSV file")
	label := flag.String("label", "", "label column (left out of the features)")
	scale := flag.String("scale", "std", "none, std or minmax")
	ks := flag.String("k", "10,20", "neighbour counts, comma-separated")
	methods := flag.String("methods", "average,complete,weighted", "linkages")
	check := flag.Bool("check", false, "compare the tree on the cells with FromPoints's (needs 8N² bytes)")
	flag.Parse()
	ds, err := dataset.Load(*data, dataset.CSVOptions{Label: *label})
	if err != nil {
		log.Fatal(err)
	}
	X := ds.X
	if *scale != "none" {
		sc, err := dataset.FitScaler(X, *scale)
		if err != nil {
			log.Fatal(err)
		}
		if X, err = sc.Transform(nil, X); err != nil {
			log.Fatal(err)
		}
	}
	n, d := X.Dims()
	fmt.Printf("%s: %d rows × %d features, scale %s\n", *data, n, d, *scale)
	ctx := context.Background()
	for _, ms := range strings.Split(*methods, ",") {
		m, err := hclust.ParseMethod(ms)
		if err != nil {
			log.Fatal(err)
		}
		var want *hclust.Tree
		if *check {
			if want, err = hclust.FromPoints(ctx, X, m); err != nil {
				log.Fatal(err)
			}
		}
		for _, kv := range strings.Split(*ks, ",") {
			k, err := strconv.Atoi(kv)
			if err != nil {
				log.Fatal(err)
			}
			t0 := time.Now()
			cells, K, err := hclust.ExactCells(ctx, X, m, k)
			if err != nil {
				log.Fatal(err)
			}
			t1 := time.Now()
			tr, err := hclust.FromPointsCells(ctx, X, cells, K, m)
			if err != nil {
				log.Fatal(err)
			}
			t2 := time.Now()
			same := "-"
			if want != nil {
				diff, worst := 0, 0.0
				for q := range want.Merges {
					g, w := tr.Merges[q], want.Merges[q]
					if g.A != w.A || g.B != w.B || g.Size != w.Size {
						diff++
					}
					worst = max(worst, math.Abs(g.Height-w.Height)/max(w.Height, 1e-300))
				}
				same = fmt.Sprintf("%d of %d merges differ, heights within %.1e", diff, n-1, worst)
			}
			fmt.Printf("%-9s k=%-3d cells %6d (%.1f rows each, K² = %.0f MB)  cells %.2f s, tree %.2f s  %s\n",
				m, k, K, float64(n)/float64(K), float64(K)*float64(K)*8/1e6, t1.Sub(t0).Seconds(), t2.Sub(t1).Seconds(), same)
		}
	}
}
