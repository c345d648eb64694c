package pipeline

// The learner families a pipeline fits and loads register themselves
// (package learner's registry) when linked in.
import (
	_ "github.com/arbor-ml/arbor/learner/builtin"
)
