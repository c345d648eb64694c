package builtin

import (
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/svm"
)

// svm: C-SVC on the kernel, trained on the labelled rows' Gram block and
// applied to the unlabelled-by-labelled block (the papers' transductive
// protocol, LIBSVM with a precomputed kernel). A class with a single
// labelled row is accepted (a legitimate semi-supervised setting).
func init() {
	learner.Register(learner.Entry{
		Name: "svm", Help: "svm", Rank: 10,
		Flags: []learner.Flag{learner.CFlag, learner.TolFlag, learner.MaxIterFlag},
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			c, err := learner.PositiveC(v)
			if err != nil {
				return nil, err
			}
			s := svm.Classifier{C: c, Tol: v.Float("tol"), MaxIter: v.Int("max-iter"), AllowSingleton: true}
			return []learner.Learner{learner.Adapt("svm", s)}, nil
		},
		Models: map[string]learner.ModelCodec{"svm": learner.Codec(svm.Load)},
	})
}
