// Command graphs tries the neighbourhood-graph variants paper 002 Table 1's
// "kNN + ISOMAP 95.71 (k_isomap = 5, k_kNN = 5)" may have used, on USPS/100
// (first official split, no scaling, uniform kNN, k_kNN = 1..10): the
// symmetrised (union) kNN graph, the mutual kNN graph, the directed kNN
// graph with its shortest paths symmetrised by min, mean or max, for
// k_isomap = 4 (k counting the point itself), 5 and 6; squared or plain
// geodesics before centring; disconnected graphs joined by paper 000 Eq. 4.
// Written independently of package graph (own Dijkstra, own joins) so that
// the variants need no library change. About 7 minutes on 2 busy cores.
//
//	go run ./bench/isomapvariants/graphs
package main

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"gonum.org/v1/gonum/mat"
)

type item struct {
	d float64
	v int
}
type hp []item

func (h hp) Len() int           { return len(h) }
func (h hp) Less(a, b int) bool { return h[a].d < h[b].d }
func (h hp) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *hp) Push(x any)        { *h = append(*h, x.(item)) }
func (h *hp) Pop() any          { o := *h; x := o[len(o)-1]; *h = o[:len(o)-1]; return x }

func main() {
	ctx := context.Background()
	d, _ := dataset.Embedded("usps")
	sp, _ := dataset.EmbeddedSplits("usps", 100)
	n := d.Len()
	D, _ := distance.Euclidean(ctx, d.X)
	dist := func(i, j int) float64 {
		if i == j {
			return 0
		}
		return D.At(i, j)
	}
	// neighbour order by (d, index)
	order := make([][]int, n)
	for i := 0; i < n; i++ {
		o := make([]int, n)
		for j := range o {
			o[j] = j
		}
		sort.SliceStable(o, func(a, b int) bool {
			da, db := dist(i, o[a]), dist(i, o[b])
			if da != db {
				return da < db
			}
			return o[a] < o[b]
		})
		order[i] = o[1:] // drop self (distance 0, lowest index among zeros... assume self first)
	}
	y := make([]int, n)
	for i := range y {
		y[i] = -1
	}
	for _, r := range sp[0] {
		y[r] = d.Y[r]
	}
	dmax := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dmax = math.Max(dmax, dist(i, j))
		}
	}
	run := func(name string, k int, mode string, squared bool, sym string) {
		in := make([]map[int]bool, n)
		for i := 0; i < n; i++ {
			in[i] = map[int]bool{}
			for _, j := range order[i][:k] {
				in[i][j] = true
			}
		}
		adj := make([][]item, n)
		for i := 0; i < n; i++ {
			for j := range in[i] {
				switch mode {
				case "union":
					adj[i] = append(adj[i], item{dist(i, j), j})
					if !in[j][i] {
						adj[j] = append(adj[j], item{dist(i, j), i})
					}
				case "mutual":
					if in[j][i] {
						adj[i] = append(adj[i], item{dist(i, j), j})
					}
				case "directed":
					adj[i] = append(adj[i], item{dist(i, j), j})
				}
			}
		}
		G := make([][]float64, n)
		for s := 0; s < n; s++ {
			g := make([]float64, n)
			for i := range g {
				g[i] = math.Inf(1)
			}
			g[s] = 0
			h := &hp{{0, s}}
			for h.Len() > 0 {
				it := heap.Pop(h).(item)
				if it.d > g[it.v] {
					continue
				}
				for _, e := range adj[it.v] {
					if nd := it.d + e.d; nd < g[e.v] {
						g[e.v] = nd
						heap.Push(h, item{nd, e.v})
					}
				}
			}
			G[s] = g
		}
		// symmetrise directed
		if mode == "directed" {
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					a, b := G[i][j], G[j][i]
					var v float64
					switch sym {
					case "min":
						v = math.Min(a, b)
					case "max":
						v = math.Max(a, b)
					default:
						v = (a + b) / 2
					}
					G[i][j], G[j][i] = v, v
				}
			}
		}
		// join disconnected (finite check): Eq. 4 simplified: repeatedly link closest cross pair
		inf := 0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if math.IsInf(G[i][j], 1) {
					inf++
				}
			}
		}
		joins := 0
		for inf > 0 {
			gmax := 0.0
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if !math.IsInf(G[i][j], 1) {
						gmax = math.Max(gmax, G[i][j])
					}
				}
			}
			bi, bj, bd := -1, -1, math.Inf(1)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					if math.IsInf(G[i][j], 1) && dist(i, j) < bd {
						bi, bj, bd = i, j, dist(i, j)
					}
				}
			}
			L := gmax + bd/dmax
			A, B := []int{}, []int{}
			for a := 0; a < n; a++ {
				if !math.IsInf(G[a][bi], 1) {
					A = append(A, a)
				}
				if !math.IsInf(G[bj][a], 1) {
					B = append(B, a)
				}
			}
			for _, a := range A {
				for _, b := range B {
					v := G[a][bi] + L + G[bj][b]
					G[a][b], G[b][a] = v, v
				}
			}
			joins++
			inf = 0
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if math.IsInf(G[i][j], 1) {
						inf++
					}
				}
			}
		}
		M := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				M.SetSym(i, j, G[i][j])
			}
		}
		var K *mat.SymDense
		if squared {
			K = kernel.CenterSquared(nil, M)
		} else {
			K = kernel.Center(nil, M)
		}
		K, _, _ = kernel.ClipPSD(ctx, K, K)
		var u []int
		for i := range y {
			if y[i] < 0 {
				u = append(u, i)
			}
		}
		fmt.Printf("%-34s joins %3d:", name, joins)
		for kk := 1; kk <= 10; kk++ {
			m, err := knn.Classifier{K: kk}.FitGram(ctx, K, y)
			if err != nil {
				panic(err)
			}
			p, _ := m.PredictRows(ctx, nil, u)
			c := 0
			for a, r := range u {
				if p[a] == d.Y[r] {
					c++
				}
			}
			fmt.Printf(" %6.2f", 100*float64(c)/float64(len(u)))
		}
		fmt.Println()
	}
	for _, k := range []int{4, 5, 6} {
		for _, sq := range []bool{true, false} {
			run(fmt.Sprintf("union k=%d sq=%v", k, sq), k, "union", sq, "")
			run(fmt.Sprintf("mutual k=%d sq=%v", k, sq), k, "mutual", sq, "")
			for _, s := range []string{"min", "mean", "max"} {
				run(fmt.Sprintf("directed-%s k=%d sq=%v", s, k, sq), k, "directed", sq, s)
			}
		}
	}
}
