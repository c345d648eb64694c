package arborbeam

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/arbor-ml/arbor/pipeline"
)

var models struct {
	sync.Mutex
	m map[string]*loaded
}

type loaded struct {
	once sync.Once
	p    *pipeline.Pipeline
	err  error
}

// loadFor loads the model at path (LoadModel) for a step that labels
// (features false) or maps (features true) rows: a model with no
// landmark map is refused for the latter.
func loadFor(ctx context.Context, path string, features bool) (*pipeline.Pipeline, error) {
	p, err := LoadModel(ctx, path)
	if err == nil && features {
		err = CheckFeatures(p, path)
	}
	return p, err
}

// LoadModel reads the pipeline saved at path (any Beam filesystem) once
// per process: every DoFn instance of a worker shares it (a fitted model
// is only read, never changed, by labelling).
func LoadModel(ctx context.Context, path string) (*pipeline.Pipeline, error) {
	models.Lock()
	if models.m == nil {
		models.m = map[string]*loaded{}
	}
	l := models.m[path]
	if l == nil {
		l = &loaded{}
		models.m[path] = l
	}
	models.Unlock()
	l.once.Do(func() {
		fs, err := filesystem.New(ctx, path)
		if err != nil {
			l.err = fmt.Errorf("model %s: %w", path, err)
			return
		}
		defer fs.Close()
		r, err := fs.OpenRead(ctx, path)
		if err != nil {
			l.err = fmt.Errorf("model %s: %w", path, err)
			return
		}
		defer r.Close()
		l.p, l.err = pipeline.Load(r, path)
	})
	return l.p, l.err
}
