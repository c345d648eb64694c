// Package s4vm is the safe semi-supervised support vector machine S4VM of
// Li & Zhou ("Towards Making Unlabeled Data Never Hurt", ICML 2011), as
// its reference implementation runs it (the authors' MATLAB code and its R
// port, RSSL 0.9.x S4VM; ../shared/papers/s4vm.md restates it step by
// step), on any kernel, for two classes and, by one-vs-one max-wins
// voting, for more (the baseline of paper 003, HiBUST).
//
// # API
//
//	m, err := s4vm.S4VM{Seed: 1}.FitGram(ctx, K, y) // K n×n over ALL rows, y[i] = class ≥ 0 or learner.Unlabeled
//	m, err := s4vm.S4VM{Kernel: kernel.RBF{Gamma: 1}}.Fit(ctx, X, y)
//	m.Transduction()            // a label for every training row
//	m.Predict(ctx, dst, Kt)     // new points from their t×n kernel rows
//	m.Classes(), m.Save(w), s4vm.Load(r)
//	m.Pairs[p]                  // per binary problem: θ, fallback, the inductive labels, counts
//	learner.Adapt("s4vm", s)   // as a learner.Learner (registered as --learner s4vm)
//	lab, err := s.Transduce(ctx, K, y) // FitGram's Transduction only: no predictor SVMs are trained
//
// Settings (zero = the reference's default): C1 = 100 (labelled rows), C2
// = 0.1 (unlabelled rows), Samples = sampleTime = 100, Lambda = λ = 3,
// Groups = ⌊Samples/10⌋, Kernel = linear (Fit only), Tol = 1e-3,
// MaxSteps = 200, Seed. The paper min–max scales features to [0, 1]
// first; this package, like the reference, does not.
//
// # The algorithm (binary; labels ±1, +1 = the lower class)
//
// Rows are ordered labelled first (l rows, y_i given), then unlabelled (u
// rows), each in input order; n = l + u.
//
//  1. Inductive SVM: a C-SVC with C1 on the labelled rows; ysvm = its
//     labels on all n rows.
//  2. Candidates: for i = 1..T (T = Samples) the unlabelled rows start
//     uniformly random ±1 (i ≤ 0.8T) or from ysvm with each label flipped
//     with probability 0.2; labelled rows start from their labels. One more
//     candidate starts from ysvm on all rows when ysvm has both signs on
//     the unlabelled rows.
//  3. Local descent of a candidate: fit a C-SVC on all n rows with per-row
//     bounds (C1 labelled, C2 unlabelled); sort the rows by the decision
//     value f, descending; the top h₁ = ⌈n(1+β−0.1)/2⌉ become +1, the
//     bottom h₂ = ⌈n(1−β−0.1)/2⌉ −1, the rest sign(f) (β = the mean
//     labelled label). The next training labels are the new ones on the
//     labelled rows and on a random 80 % of the unlabelled rows, the ones
//     from two steps back on the other ⌈0.2u⌉; repeat until the labels and
//     the SVM's dual objective repeat, or MaxSteps + 1 refits. The score of
//     the candidate is the last fit's dual objective ½αᵀQα − eᵀα (larger is
//     a better separator).
//  4. The candidate label vectors are grouped into min(Groups, distinct
//     vectors) groups by k-medoids (PAM, BUILD + SWAP, as R's cluster::pam)
//     under the L1 distance; the best-scored candidate of each group is kept:
//     ŷ_1..ŷ_m.
//  5. Safe combination over the unlabelled rows: max θ subject to
//     θ ≤ Σ_j[(1+λ)ŷ_tj − (1−λ)ysvm_j]·y_j/4 + (1−λ)u/4 − (1+λ)ŷ_tᵀysvm/4
//     for every t, y ∈ [−1, 1]^u, solved exactly by a bounded-variable
//     simplex over the distinct row patterns, with the least-norm y among
//     the optima (the reference's QP adds a 1e-8 ridge). θ < −1e-5: the
//     labels are ysvm (Pair.Fallback); else sign(y), sign(0) = +1.
//
// Multi-class: one binary S4VM per pair of classes a < b on the rows
// labelled a or b plus every unlabelled row; each unlabelled row gets the
// class with the most pairwise wins, ties to the lower class.
//
// Predict is inductive, which the reference does not offer: for every pair
// the package trains a C-SVC on all of the pair's rows with their final
// (transductive) labels and the same bounds C1/C2; new points vote with
// these machines. On the training rows these machines may disagree with
// Transduction (it is what S4VM chose; they are a smooth fit to it).
//
// # Speed and determinism
//
// All SVMs run on the one SMO core (internal/smo, LIBSVM's Solver with
// per-row upper bounds). By default each refit of a local descent keeps
// the column cache and starts from the previous α (switched labels start
// at 0, then the start is made feasible), with the gradient updated from
// the previous one by the changed variables only; Cold instead refits from
// α = 0 with LIBSVM's row order (the class of row 0 first), reproducing
// the reference's iterates. With the kernel held as a float32 block (n² ≤
// 2²⁶) and a pair's float32 matrix within one candidate's cache budget
// (4·m² bytes ≤ CacheMB for m rows), each pair builds that matrix once and
// its candidates read their columns from it in place until shrinking
// permutes them (smo.Cache.Lend). Pairs start in order, so at most
// GOMAXPROCS matrices exist, reused from pair to pair. Candidates run in
// parallel (internal/parallel), candidate i of pair p drawing from
// PCG(Seed, p·2³² + i + 1), results combined in candidate order: the same
// Seed gives the same labels for any GOMAXPROCS. A refit costs
// O(iterations·n) plus one kernel column per cache miss; a run costs about
// (T+1)·(descent steps) refits; k-medoids O(T²·n) for the distances and
// O(k·T²) per SWAP pass; the linear program is tiny (≤ Groups
// constraints, one variable per distinct pattern).
//
// Measured (2-core machine shared with other jobs): a warm refit on USPS
// (1,500 rows, 1 % of the labels switched) takes about 0.25× a cold fit on
// the same Gram matrix and 0.03× the reference's cold fit from the points
// (BenchmarkRetrain); whole runs take 0.7–2.6 s per split where RSSL takes
// 45–140 s (go run ./bench/s4vm/accuracy); USPS end to end (1,500 rows,
// 10 labelled, min–max, linear; bench/s4vm/usps_time.py): the whole
// arbor classify process 0.034× RSSL's wall time, 0.011× its CPU time,
// both 74.30 % accurate.
//
// # Agreement with the reference
//
// testdata/rssl_fixtures.R records RSSL's random draws; with them the
// local descents, the PAM grouping, the kept separators, the safe
// combination and the final labels are RSSL's (rssl_test.go). Whole runs
// with Arbor's own draws (testdata/rssl_accuracy.R, bench/s4vm/accuracy;
// min–max scaled, 10 labelled per class, 10 splits, linear): mean accuracy
// iris (one-vs-one) 83.00 vs RSSL 82.75, wine 91.28 vs 90.41, two_moons
// 86.84 vs 86.84, breast_cancer 90.38 vs 90.44; the inductive SVM (C = 100)
// is identical (94.83, 93.78, 85.74, 92.46): S4VM is not safe one-vs-one
// and can trail the inductive SVM even on two classes.
//
// # Errors and warnings
//
// ErrBadParam (C1, C2 or Lambda negative or not finite, Samples < 0,
// Groups > Samples: "sampleTime < groups"), ErrShape, ErrNonFinite,
// ErrBadLabel, ErrOneClass (fewer than two labelled classes), ErrNoLabel
// (a class of S4VM.Classes without a labelled row), ErrFormat (Load).
// Warnings in Model.Warnings: ErrAllLabeled (no unlabelled row: the
// result is the inductive SVM), ErrNotConverged. (All candidates in one
// group, which RSSL warns about, is common and reported in Pair.Groups.)
package s4vm
