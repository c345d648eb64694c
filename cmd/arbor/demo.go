package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/ssl"
	"github.com/arbor-ml/arbor/svm"
)

func init() {
	register(command{name: "demo", summary: "the tour: cluster two moons, then few labels + hierarchical cluster kernel vs plain SVM (USPS, paper 000)", run: runDemo})
}

// paper000 holds the published accuracies (Bodó 2008, Tables 1-3) that the
// demo prints beside Arbor's.
var paper000 = map[string][2]float64{ // kernel spec -> USPS/10, USPS/100
	"linear":              {72.82, 86.43},
	"hck:average":         {81.48, 92.86},
	"hckg:average:knn:7":  {89.26, 95.64},
	"hckg:complete:knn:7": {88.26, 95.64},
	"isomap:knn:7":        {85.10, 86.71},
	"hck:single":          {80.07, 81.79},
	"hck:complete":        {82.01, 89.50},
	"hckg:single:knn:7":   {80.07, 81.79},
	"connectivity":        {80.07, 81.79},
}

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "demo", "[--out-dir arbor-demo]")
	outDir := fs.String("out-dir", "arbor-demo", "directory for the pictures")
	quick := fs.Bool("quick", false, "skip the USPS table")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	w := e.stdout
	say := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }

	// 1. Unsupervised: a hierarchy over two moons.
	moons, err := dataset.Embedded("two_moons")
	if err != nil {
		return err
	}
	say("1. Clustering: %d points of two moons, no labels used.\n", moons.Len())
	spec := graph.Spec{Kind: graph.KindKNN, K: 7}
	geo, err := graph.Geodesic(ctx, moons.X, spec)
	if err != nil {
		return err
	}
	tree, err := hclust.Linkage(ctx, distance.FromSymmetric(geo.G), hclust.Average)
	if err != nil {
		return err
	}
	cut, err := tree.CutK(2)
	if err != nil {
		return err
	}
	ari, err := metrics.ARI(moons.Y, cut)
	if err != nil {
		return err
	}
	say("   average linkage on shortest paths of the symmetrised 7-NN graph (%d component joins);\n", geo.Joins)
	say("   cut into 2 clusters: sizes %v, adjusted Rand index vs the true moons %.3f.\n", clusterSizes(cut), ari)
	say("   Without labels the bridge between the noisy moons fools every linkage: labels help.\n")
	fig, err := figure.Dendrogram(tree, figure.DendrogramOptions{Title: "two moons: average linkage, 7-NN graph distances", K: 2})
	if err != nil {
		return err
	}
	dendro := filepath.Join(*outDir, "two_moons_dendrogram.png")
	if err := fig.Save(dendro); err != nil {
		return err
	}
	say("   wrote %s\n\n", dendro)

	// 2. Semi-supervised: five labels per moon.
	const perClass, seeds = 5, 10
	say("2. Semi-supervised: the same points with %d labels per moon (seeds 0-%d); SVM, C = 1,\n", perClass, seeds-1)
	say("   on a point kernel vs data-dependent kernels built from all 400 points.\n")
	var splits [][]int
	for s := uint32(0); s < seeds; s++ {
		l, err := ssl.PerClass(moons.Y, perClass, s)
		if err != nil {
			return err
		}
		splits = append(splits, l)
	}
	moonSpecs, err := kernel.ParseSpecs("linear,rbf:scale,hck:average,hckg:average,isomap")
	if err != nil {
		return err
	}
	svmLearner := learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true})
	res, err := ssl.Eval{Kernels: moonSpecs, Learners: []learner.Learner{svmLearner}}.Run(ctx, moons.X, moons.Y, splits)
	if err != nil {
		return err
	}
	accs := map[string][]float64{}
	for _, r := range res {
		accs[r.Kernel] = append(accs[r.Kernel], 100*r.Accuracy)
	}
	for _, sp := range moonSpecs {
		m, sd := ssl.MeanStd(accs[sp.String()])
		say("   %-20s accuracy on the unlabelled points %6.2f ± %5.2f %%\n", sp.String(), m, sd)
	}
	y := moons.WithLabeled(splits[0]).Y
	for _, ks := range []string{"rbf:scale", "hckg:average"} { // as in the table above
		sp, err := kernel.ParseSpec(ks)
		if err != nil {
			return err
		}
		built, err := kernel.BuildAll(ctx, moons.X, []kernel.Spec{sp}, kernel.BuildOptions{})
		if err != nil {
			return err
		}
		b := built[0]
		pred, model, err := ssl.Transduce(ctx, svmLearner, ssl.Problem{X: moons.X, K: b.K, Y: y, Spec: &b.Spec})
		if err != nil {
			return err
		}
		fig, err := figure.Scatter(moons.X, pred, figure.ScatterOptions{
			Title:   fmt.Sprintf("two moons, %d labels (seed 0, outlined): SVM on %s", 2*perClass, b.Spec),
			Labeled: splits[0], XLabel: moons.Features[0], YLabel: moons.Features[1],
		})
		if err != nil {
			return err
		}
		name := filepath.Join(*outDir, "two_moons_svm_"+safeName(b.Spec.String())+".png")
		if err := fig.Save(name); err != nil {
			return err
		}
		say("   wrote %s (predicted labels, seed 0)\n", name)
		rules := []string{kernel.RuleTree}
		if b.Spec.Kind == kernel.KindHCK {
			rules = []string{kernel.RuleTree, kernel.RuleLinear} // both out-of-sample rules, side by side
		}
		for _, rule := range rules {
			predict := ssl.Labeler(ctx, model, b, moons.X, rule) // the model fitted above
			title := fmt.Sprintf("two moons, %d labels: SVM decision regions, %s", 2*perClass, b.Spec)
			suffix := ""
			if b.Spec.Kind == kernel.KindHCK {
				if rule == kernel.RuleLinear {
					title += " (new points by §3.5: linear in x)"
					suffix = "_linear"
				} else {
					title += " (new points through the tree)"
					suffix = "_tree"
				}
			}
			fig, err = figure.DecisionRegions(predict, moons.X, y, figure.RegionOptions{
				ScatterOptions: figure.ScatterOptions{Title: title, Labeled: splits[0], XLabel: moons.Features[0], YLabel: moons.Features[1]},
				Grid:           100,
			})
			if err != nil {
				return err
			}
			name = filepath.Join(*outDir, "two_moons_regions_"+safeName(b.Spec.String())+suffix+".png")
			if err := fig.Save(name); err != nil {
				return err
			}
			say("   wrote %s (decision regions for new points)\n", name)
		}
		if b.Spec.Kind == kernel.KindHCK {
			Z, err := kernel.Embed(ctx, b.K, 2)
			if err != nil {
				return err
			}
			fig, err := figure.Embedding(Z, moons.Y, figure.ScatterOptions{
				Title:   "two moons in the feature space of " + b.Spec.String() + " (Z = U·√S, true classes)",
				Labeled: splits[0],
			})
			if err != nil {
				return err
			}
			name := filepath.Join(*outDir, "two_moons_embedding_"+safeName(b.Spec.String())+".png")
			if err := fig.Save(name); err != nil {
				return err
			}
			say("   wrote %s (kernel embedding, paper 000 Fig. 6)\n", name)
		}
	}
	say("\n")
	if *quick {
		say("done in %.1fs\n", time.Since(start).Seconds())
		return nil
	}

	// 3. Paper 000 on USPS: SVM with the hierarchical cluster kernel.
	usps, err := dataset.Embedded("usps")
	if err != nil {
		return err
	}
	say("3. USPS (%d digits, %d features; class 1 = digits 2 and 5), first official split, no scaling,\n", usps.Len(), usps.Dim())
	say("   SVM (C = 1) on precomputed kernels over all points; accuracy (%%) on the unlabelled points.\n")
	say("   Paper: Bodó 2008, Tables 1-3.\n\n")
	specs, err := kernel.ParseSpecs("linear,hck:average,hckg:average,isomap")
	if err != nil {
		return err
	}
	// One Eval over both splits: the kernels are label-free and built once.
	var first [][]int
	for _, nl := range []int{10, 100} {
		splits, err := dataset.EmbeddedSplits("usps", nl)
		if err != nil {
			return err
		}
		first = append(first, splits[0])
	}
	res, err = ssl.Eval{Kernels: specs, Learners: []learner.Learner{learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true})}}.Run(ctx, usps.X, usps.Y, first)
	if err != nil {
		return err
	}
	results := map[string][2]float64{}
	for _, r := range res {
		v := results[r.Kernel]
		v[r.Split] = 100 * r.Accuracy
		results[r.Kernel] = v
	}
	say("   %-22s %9s %9s   %9s %9s\n", "kernel", "USPS/10", "paper", "USPS/100", "paper")
	for _, sp := range specs {
		k := sp.String()
		a, p := results[k], paper000[k]
		say("   %-22s %9.2f %9.2f   %9.2f %9.2f\n", k, a[0], p[0], a[1], p[1])
	}
	say("\n   The cluster kernel turns 10 labels into the accuracy a linear SVM needs 100 for.\n")
	say("   Next: arbor eval --data usps --splits usps:100 --split-line 1 --scale none \\\n")
	say("           --kernel linear,hck:single,hck:complete,hck:average,hckg:average,isomap --learner svm,knn --k 1-5\n")
	say("\ndone in %.1fs\n", time.Since(start).Seconds())
	return nil
}

// safeName turns a kernel spec into a file-name fragment.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ':' || c == ',' || c == '=' || c == '/' {
			b[i] = '_'
		}
	}
	return string(b)
}
