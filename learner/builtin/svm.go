package builtin

import (
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/svm"
)

// plattFolds chooses the cross-validation folds of the SVM's probability
// estimates (svm.Classifier.Shuffle).
var plattFolds = learner.Flag{Name: "platt-folds", Kind: learner.String, Default: svm.ShuffleLIBSVM,
	Usage: "svm with --proba: the folds of the Platt sigmoids' cross-validation: libsvm (those of svm-train -b 1, from the C library's rand() after srand(--seed); --seed 0 or 1 is svm-train's own, whose probabilities it then gives) or pcg (drawn by Go's PCG from --seed)"}

// svm: C-SVC on the kernel, trained on the labelled rows' Gram block and
// applied to the unlabelled-by-labelled block (the papers' transductive
// protocol, LIBSVM with a precomputed kernel). A class with a single
// labelled row is accepted (a legitimate semi-supervised setting).
func init() {
	learner.Register(learner.Entry{
		Name: "svm", Help: "svm", Rank: 10,
		Flags: []learner.Flag{learner.CFlag, learner.TolFlag, learner.MaxIterFlag, plattFolds},
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			c, err := learner.PositiveC(v)
			if err != nil {
				return nil, err
			}
			folds := v.String("platt-folds")
			if folds != svm.ShuffleLIBSVM && folds != svm.ShufflePCG {
				return nil, learner.Settingsf("--platt-folds %q: want %s or %s", folds, svm.ShuffleLIBSVM, svm.ShufflePCG)
			}
			seed := v.Seed()
			if folds == svm.ShuffleLIBSVM && seed > 1<<32-1 {
				return nil, learner.Settingsf("--seed %d with --platt-folds libsvm: want < 2^32 (the seed of the C library's srand)", seed)
			}
			s := svm.Classifier{C: c, Tol: v.Float("tol"), MaxIter: v.Int("max-iter"), AllowSingleton: true, Shuffle: folds, Seed: seed}
			return []learner.Learner{learner.Adapt("svm", s)}, nil
		},
		Models: map[string]learner.ModelCodec{"svm": learner.Codec(svm.Load)},
	})
}
