// Command paper003 reproduces paper 003's Table II (S4VM one-vs-one
// against HiBUST, linear kernel, 10/20/30 labelled objects per class, 10
// repetitions, mean ± sd of the accuracy on the unlabelled objects) on the
// embedded iris, wine, gauss9 and usps, and the θ study of §4.3 on usps
// (θ ∈ {0.7, 0.8, 0.9}: accuracy and number of confidence-labelled
// objects); with -fig1 it draws the pedagogical example of Fig. 1 with
// HiBUST's decision regions.
//
// Protocol: features min–max scaled to [0, 1] (the S4VM paper's); the
// labelled rows of repetition r are ssl.PerClass(y, LO, r) (NumPy
// RandomState(r), as peers.py); S4VM and HiBUST with the reference's
// defaults (C1 = 100, C2 = 0.1, 100 samples, λ = 3), HiBUST with 10 MCCK
// restarts; every seed = r.
//
//	go run ./bench/paper003                      # the whole table (slow: usps)
//	go run ./bench/paper003 -sets iris,wine -lo 10
//	go run ./bench/paper003 -theta -reps 3       # the θ study only
//	go run ./bench/paper003 -fig1 fig1.png
//	go run ./bench/paper003 -nodes gauss9 -lo 10 -reps 5  # node learners compared
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// paper is Table II's 10/20/30 rows for the sets Arbor embeds.
var paper = map[string][3][2]string{
	"iris":   {{"0.81 ± 0.04", "0.92 ± 0.02"}, {"0.86 ± 0.02", "0.94 ± 0.01"}, {"0.94 ± 0.02", "0.94 ± 0.01"}},
	"wine":   {{"0.87 ± 0.02", "0.94 ± 0.01"}, {"0.90 ± 0.04", "0.94 ± 0.01"}, {"0.93 ± 0.01", "0.93 ± 0.01"}},
	"gauss9": {{"0.67 ± 0.04", "0.85 ± 0.02"}, {"0.70 ± 0.05", "0.88 ± 0.01"}, {"0.69 ± 0.04", "0.88 ± 0.02"}},
	"usps":   {{"0.75 ± 0.05", "0.75 ± 0.05"}, {"0.77 ± 0.04", "0.78 ± 0.04"}, {"0.78 ± 0.02", "0.83 ± 0.04"}},
}

func main() {
	sets := flag.String("sets", "iris,wine,gauss9,usps", "data sets (embedded)")
	los := flag.String("lo", "10,20,30", "labelled objects per class")
	reps := flag.Int("reps", 10, "repetitions (seeds from..from+reps-1)")
	flag.IntVar(&from, "from", 0, "first seed (to split a long run; the stderr lines of the parts give the whole table)")
	theta := flag.Bool("theta", false, "run the θ study on usps instead of Table II")
	maxIter = flag.Int("maxiter", 0, "MCCK's MaxIter (0 = hibust's default, 100)")
	hibustOnly = flag.Bool("hibust-only", false, "Table II: skip S4VM one-vs-one (its column is then meaningless)")
	nodeSVM = flag.Bool("node-svm", false, "Table II: the inductive SVM (C = 100) at HiBUST's nodes instead of S4VM")
	thetaList := flag.String("thetas", "0.7,0.8,0.9,0", "θ values of the θ study (0 = no confidence labelling)")
	nodes := flag.String("nodes", "", "compare S4VM and SVM node learners on the tree's node problems of this set (see nodes.go) and exit")
	fig1 := flag.String("fig1", "", "draw Fig. 1's example with HiBUST's regions to this .png/.svg and exit")
	flag.Parse()
	ctx := context.Background()
	if *fig1 != "" {
		if err := drawFig1(ctx, *fig1); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	var lo []int
	for _, s := range strings.Split(*los, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "-lo: bad %q\n", s)
			os.Exit(2)
		}
		lo = append(lo, v)
	}
	var err error
	if *nodes != "" {
		err = nodeStudy(ctx, *nodes, lo[0], *reps)
	} else if *theta {
		var ths []float64
		for _, s := range strings.Split(*thetaList, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || v < 0 || v > 1 {
				fmt.Fprintf(os.Stderr, "-thetas: bad %q\n", s)
				os.Exit(2)
			}
			ths = append(ths, v)
		}
		err = thetaStudy(ctx, lo, *reps, ths)
	} else {
		err = table2(ctx, strings.Split(*sets, ","), lo, *reps)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var (
	maxIter             *int
	hibustOnly, nodeSVM *bool
	from                int
)

type problem struct {
	K    *mat.SymDense
	y    []int // all labels
	name string
}

func load(ctx context.Context, name string) (problem, error) {
	ds, err := dataset.Embedded(name)
	if err != nil {
		return problem{}, err
	}
	K, err := kernel.Gram(ctx, nil, kernel.Linear{}, dataset.MinMax(ds.X))
	return problem{K: K, y: ds.Y, name: name}, err
}

// split hides all but lo labelled rows per class (seed r).
func (p problem) split(lo, r int) ([]int, error) {
	l, err := ssl.PerClass(p.y, lo, uint32(r))
	if err != nil {
		return nil, err
	}
	y := make([]int, len(p.y))
	for i := range y {
		y[i] = hibust.Unlabeled
	}
	for _, i := range l {
		y[i] = p.y[i]
	}
	return y, nil
}

func accuracy(pred, truth, y []int) float64 {
	c, n := 0, 0
	for i := range y {
		if y[i] == hibust.Unlabeled {
			n++
			if pred[i] == truth[i] {
				c++
			}
		}
	}
	return float64(c) / float64(n)
}

func meanSD(a []float64) (float64, float64) {
	var m, s float64
	for _, v := range a {
		m += v
	}
	m /= float64(len(a))
	for _, v := range a {
		s += (v - m) * (v - m)
	}
	if len(a) > 1 {
		s /= float64(len(a) - 1)
	}
	return m, math.Sqrt(s)
}

func table2(ctx context.Context, sets []string, lo []int, reps int) error {
	fmt.Printf("Paper 003 Table II on Arbor's sets: linear kernel, min-max scaled, %d repetitions, accuracy on the unlabelled rows (mean ± sd)\n\n", reps)
	fmt.Printf("%-4s %-7s %-13s %-13s %-13s %-13s %9s %9s\n", "#LO", "set", "S4VM (OvO)", "HiBUST", "paper S4VM", "paper HiBUST", "s4vm s", "hibust s")
	for _, l := range lo {
		for _, name := range sets {
			p, err := load(ctx, strings.TrimSpace(name))
			if err != nil {
				return err
			}
			var as, ah []float64
			var ts, th time.Duration
			for r := from; r < from+reps; r++ {
				y, err := p.split(l, r)
				if err != nil {
					return err
				}
				t0 := time.Now()
				sTrans := make([]int, len(y))
				if !*hibustOnly {
					ms, err := s4vm.S4VM{Seed: uint64(r)}.FitGram(ctx, p.K, y)
					if err != nil {
						return fmt.Errorf("%s LO %d rep %d: s4vm: %w", p.name, l, r, err)
					}
					sTrans = ms.Transduction()
				}
				t1 := time.Now()
				hc := hibust.Classifier{Seed: uint64(r), MaxIter: *maxIter, S4VM: s4vm.S4VM{Seed: uint64(r)}}
				if *nodeSVM {
					hc.Node = hibust.SVMNode{}
				}
				mh, err := hc.FitGram(ctx, p.K, y)
				if err != nil {
					return fmt.Errorf("%s LO %d rep %d: hibust: %w", p.name, l, r, err)
				}
				t2 := time.Now()
				ts, th = ts+t1.Sub(t0), th+t2.Sub(t1)
				as = append(as, accuracy(sTrans, p.y, y))
				ah = append(ah, accuracy(mh.Transduction(), p.y, y))
				k := len(ah) - 1
				s4 := fmt.Sprintf("%.4f", as[len(as)-1])
				if *hibustOnly {
					s4 = "-"
				}
				fmt.Fprintf(os.Stderr, "%s LO %d rep %d: S4VM %s (%.1f s), HiBUST %.4f (%.1f s), %d clusters, MCCK passes %d\n", p.name, l, r,
					s4, t1.Sub(t0).Seconds(), ah[k], t2.Sub(t1).Seconds(), mh.Clusters, mh.Iter)
			}
			ms, ss := meanSD(as)
			mh, sh := meanSD(ah)
			ref := [2]string{"-", "-"}
			if v, ok := paper[p.name]; ok {
				if k := slices.Index([]int{10, 20, 30}, l); k >= 0 {
					ref = v[k]
				}
			}
			s4 := fmt.Sprintf("%.3f ± %.3f", ms, ss)
			if *hibustOnly {
				s4 = "-"
			}
			fmt.Printf("%-4d %-7s %-13s %.3f ± %.3f %-13s %-13s %9.2f %9.2f\n", l, p.name, s4, mh, sh, ref[0], ref[1],
				ts.Seconds()/float64(reps), th.Seconds()/float64(reps))
		}
	}
	return nil
}

func thetaStudy(ctx context.Context, lo []int, reps int, thetas []float64) error {
	p, err := load(ctx, "usps")
	if err != nil {
		return err
	}
	fmt.Printf("Paper 003 §4.3 (Fig. 6) on usps: HiBUST with confidence labelling, %d repetitions; accuracy (mean ± sd) and confidence-labelled rows (mean)\n\n", reps)
	fmt.Printf("%-4s", "#LO")
	for _, t := range thetas {
		if t == 0 {
			fmt.Printf("  %-22s", "no θ (θ = 1.0 in Fig. 6)")
		} else {
			fmt.Printf("  %-22s", fmt.Sprintf("θ = %.1f", t))
		}
	}
	fmt.Println()
	for _, l := range lo {
		fmt.Printf("%-4d", l)
		for _, t := range thetas {
			var acc, conf []float64
			for r := from; r < from+reps; r++ {
				y, err := p.split(l, r)
				if err != nil {
					return err
				}
				m, err := hibust.Classifier{Seed: uint64(r), Theta: t, S4VM: s4vm.S4VM{Seed: uint64(r)}}.FitGram(ctx, p.K, y)
				if err != nil {
					return err
				}
				acc = append(acc, accuracy(m.Transduction(), p.y, y))
				conf = append(conf, float64(len(m.Confident())))
				fmt.Fprintf(os.Stderr, "usps LO %d θ %.1f rep %d: HiBUST %.4f, %d confidence-labelled\n", l, t, r, acc[len(acc)-1], len(m.Confident()))
			}
			ma, sa := meanSD(acc)
			mc, _ := meanSD(conf)
			fmt.Printf("  %.3f ± %.3f, %6.1f   ", ma, sa, mc)
		}
		fmt.Println()
	}
	return nil
}

// fig1 rebuilds the pedagogical example as hibust's TestFigure1 does.
func fig1() (*mat.Dense, []int, []int) {
	rng := rand.New(rand.NewPCG(2013, 3))
	centers := [][2]float64{{0, 0}, {3.5, 0.5}, {6, 2}}
	class := []int{0, 1, 0}
	const per = 40
	X := mat.NewDense(3*per, 2, nil)
	var y, truth []int
	for b, c := range centers {
		for i := 0; i < per; i++ {
			X.Set(b*per+i, 0, c[0]+0.35*rng.NormFloat64())
			X.Set(b*per+i, 1, c[1]+0.35*rng.NormFloat64())
			truth = append(truth, class[b])
			if i < 3 {
				y = append(y, class[b])
			} else {
				y = append(y, hibust.Unlabeled)
			}
		}
	}
	return X, y, truth
}

func drawFig1(ctx context.Context, path string) error {
	X, y, _ := fig1()
	m, err := hibust.Classifier{Seed: 1}.Fit(ctx, X, y)
	if err != nil {
		return err
	}
	predict := func(grid *mat.Dense) ([]int, error) {
		Kt, err := kernel.Cross(ctx, nil, kernel.Linear{}, grid, X)
		if err != nil {
			return nil, err
		}
		return m.Predict(ctx, nil, Kt)
	}
	opt := figure.RegionOptions{}
	opt.Title = "Paper 003 Fig. 1: HiBUST (two linear S4VMs) on a class made of two clusters"
	opt.Classes = []string{"circles (2 clusters)", "diamonds"}
	opt.XLabel, opt.YLabel = "x1", "x2"
	for i, c := range y {
		if c != hibust.Unlabeled {
			opt.Labeled = append(opt.Labeled, i)
		}
	}
	f, err := figure.DecisionRegions(predict, X, m.Transduction(), opt)
	if err != nil {
		return err
	}
	return f.Save(path)
}
