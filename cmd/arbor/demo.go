package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
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

// paper000 holds the published accuracies (Bodó 2008, Tables 1-3) of the
// demo's kernels, printed beside Arbor's.
var paper000 = map[string][2]float64{ // kernel spec -> USPS/10, USPS/100
	"linear":             {72.82, 86.43},
	"hck:average":        {81.48, 92.86},
	"hckg:average:knn:7": {89.26, 95.64},
	"isomap:knn:7":       {85.10, 86.71},
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
	say := func(format string, a ...any) { fmt.Fprintf(e.stdout, format, a...) }
	// save writes a figure to the output directory and says so.
	save := func(fig *figure.Figure, err error, name, what string) error {
		if err != nil {
			return err
		}
		name = filepath.Join(*outDir, fileSafe.Replace(name)+".png")
		if err := fig.Save(name); err != nil {
			return err
		}
		say("   wrote %s%s\n", name, what)
		return nil
	}

	// 1. Unsupervised: a hierarchy over two moons.
	moons, err := dataset.Embedded("two_moons")
	if err != nil {
		return err
	}
	say("1. Clustering: %d points of two moons, no labels used.\n", moons.Len())
	cl, err := clustering.Fit(ctx, clustering.Settings{Linkage: hclust.Average, Distance: clustering.Graph, Graph: "knn:7", Cut: &hclust.Cut{K: 2}}, moons.X)
	if err != nil {
		return err
	}
	ari, err := metrics.ARI(moons.Y, cl.Labels)
	if err != nil {
		return err
	}
	say("   average linkage on shortest paths of the symmetrised 7-NN graph (%d component joins);\n", cl.Joins)
	say("   cut into 2 clusters: sizes %v, adjusted Rand index vs the true moons %.3f.\n", clustering.Sizes(cl.Labels), ari)
	say("   Without labels the bridge between the noisy moons fools every linkage: labels help.\n")
	fig, err := figure.Dendrogram(cl.Tree, figure.DendrogramOptions{Title: "two moons: average linkage, 7-NN graph distances", K: 2})
	if err := save(fig, err, "two_moons_dendrogram", "\n"); err != nil {
		return err
	}

	// 2. Semi-supervised: five labels per moon.
	const perClass, seeds = 5, 10
	say("2. Semi-supervised: the same points with %d labels per moon (seeds 0-%d); SVM, C = 1,\n", perClass, seeds-1)
	say("   on a point kernel vs data-dependent kernels built from all 400 points.\n")
	splits, err := ssl.PerClassSplits(moons.Y, perClass, seeds, 0)
	if err != nil {
		return err
	}
	svmLearner := learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true})
	moonSpecs, err := kernel.ParseSpecs("linear,rbf:scale,hck:average,hckg:average,isomap")
	if err != nil {
		return err
	}
	res, err := ssl.Eval{Kernels: moonSpecs, Learners: []learner.Learner{svmLearner}}.Run(ctx, moons.X, moons.Y, splits)
	if err != nil {
		return err
	}
	for _, s := range ssl.Summarize(res) {
		say("   %-20s accuracy on the unlabelled points %6.2f ± %5.2f %%\n", s.Kernel, s.Mean, s.Std)
	}
	y := moons.WithLabeled(splits[0]).Y
	scatter := func(title string) figure.ScatterOptions {
		return figure.ScatterOptions{Title: title, Labeled: splits[0], XLabel: moons.Features[0], YLabel: moons.Features[1]}
	}
	built, err := kernel.BuildAll(ctx, moons.X, []kernel.Spec{moonSpecs[1], moonSpecs[3]}, kernel.BuildOptions{}) // as in the table above
	if err != nil {
		return err
	}
	for _, b := range built {
		pred, model, err := ssl.Transduce(ctx, svmLearner, ssl.Problem{X: moons.X, K: b.K, Y: y, Spec: &b.Spec})
		if err != nil {
			return err
		}
		fig, err := figure.Scatter(moons.X, pred, scatter(fmt.Sprintf("two moons, %d labels (seed 0, outlined): SVM on %s", 2*perClass, b.Spec)))
		if err := save(fig, err, "two_moons_svm_"+b.Spec.String(), " (predicted labels, seed 0)"); err != nil {
			return err
		}
		title := fmt.Sprintf("two moons, %d labels: SVM decision regions, %s", 2*perClass, b.Spec)
		rules := [][3]string{{kernel.RuleTree, "", ""}}
		if b.Spec.Kind == kernel.KindHCK { // both out-of-sample rules, side by side
			rules = [][3]string{{kernel.RuleTree, " (new points through the tree)", "_tree"}, {kernel.RuleLinear, " (new points by §3.5: linear in x)", "_linear"}}
		}
		for _, r := range rules {
			predict := ssl.Labeler(ctx, model, b, moons.X, r[0]) // the model fitted above
			fig, err := figure.DecisionRegions(predict, moons.X, y, figure.RegionOptions{ScatterOptions: scatter(title + r[1]), Grid: 100})
			if err := save(fig, err, "two_moons_regions_"+b.Spec.String()+r[2], " (decision regions for new points)"); err != nil {
				return err
			}
		}
		if b.Spec.Kind == kernel.KindHCK {
			Z, err := kernel.Embed(ctx, b.K, 2)
			if err != nil {
				return err
			}
			fig, err := figure.Embedding(Z, moons.Y, figure.ScatterOptions{Title: "two moons in the feature space of " + b.Spec.String() + " (Z = U·√S, true classes)", Labeled: splits[0]})
			if err := save(fig, err, "two_moons_embedding_"+b.Spec.String(), " (kernel embedding, paper 000 Fig. 6)"); err != nil {
				return err
			}
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
	res, err = ssl.Eval{Kernels: specs, Learners: []learner.Learner{svmLearner}}.Run(ctx, usps.X, usps.Y, first)
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

// fileSafe turns a kernel spec into a file-name fragment.
var fileSafe = strings.NewReplacer(":", "_", ",", "_", "=", "_", "/", "_")
