package svcluster

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/landmark"
	"gonum.org/v1/gonum/mat"
)

// TestSettingsEqualsSteps: Settings.Fit is the steps it names, made one by
// one: PCA, landmark.Choose, Clusterer.Fit on the sample, Extend.
func TestSettingsEqualsSteps(t *testing.T) {
	ctx := context.Background()
	X := dataset.Blobs(300, 3, 4, 0.6, 4).X
	cl := Clusterer{Q: 0.5, C: 1 / (60 * 0.1)}
	var log bytes.Buffer
	res, err := Settings{PCA: 2, Landmarks: 60, Seed: 3, Clusterer: cl, Log: &log}.Fit(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	P, err := PCA(nil, X, 2)
	if err != nil {
		t.Fatal(err)
	}
	sample, err := landmark.Choose(ctx, P, 60, landmark.KMeans, 3)
	if err != nil {
		t.Fatal(err)
	}
	S := mat.NewDense(60, 2, nil)
	for a, i := range sample {
		S.SetRow(a, P.RawRowView(i))
	}
	one, err := cl.Fit(ctx, S)
	if err != nil {
		t.Fatal(err)
	}
	want, outside, err := Extend(ctx, one, P, sample, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Labels, want.Labels) || res.Outside != outside || res.Level != -1 || res.Hierarchy != nil {
		t.Errorf("Settings.Fit: labels equal %v, outside %d (want %d), level %d", slices.Equal(res.Labels, want.Labels), res.Outside, outside, res.Level)
	}
	if !strings.HasPrefix(log.String(), "landmarks 60 (kmeans, seed 3)") || strings.Count(log.String(), "\n") != 1 {
		t.Errorf("log %q: want one line on the landmarks", log.String())
	}
}

// TestSettingsSweep: the labels are those of the level with Clusters
// clusters when there is one, else of the closest level (Closest set).
func TestSettingsSweep(t *testing.T) {
	ctx := context.Background()
	X := dataset.Blobs(120, 3, 2, 0.5, 7).X
	for _, k := range []int{3, 40} {
		res, err := Settings{Sweep: &Sweep{Clusters: k}}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		h := res.Hierarchy
		want := h.Chosen
		if want < 0 {
			want, _, _ = h.Closest(k)
		}
		if res.Level != want || res.Closest != (h.Chosen < 0) || !slices.Equal(res.Labels, h.Levels[want].Labels) {
			t.Errorf("k = %d: level %d closest %v, want level %d (chosen %d)", k, res.Level, res.Closest, want, h.Chosen)
		}
		if k == 3 && (res.Closest || res.NClusters != 3) {
			t.Errorf("k = 3: %d clusters, closest %v: three separated blobs should give a level with 3", res.NClusters, res.Closest)
		}
	}
}

// TestSettingsErrors: a projection that cannot be made is a *PCAError;
// more landmarks than rows is ErrBadParam.
func TestSettingsErrors(t *testing.T) {
	X := dataset.Blobs(30, 2, 2, 0.5, 1).X
	var pe *PCAError
	if _, err := (Settings{PCA: 3, Clusterer: Clusterer{Q: 1, C: 1}}).Fit(context.Background(), X); !errors.As(err, &pe) || pe.K != 3 || !errors.Is(err, ErrBadParam) {
		t.Errorf("PCA 3 of 2 features: %v", err)
	}
	if _, err := (Settings{Landmarks: 31, Clusterer: Clusterer{Q: 1, C: 1}}).Fit(context.Background(), X); !errors.Is(err, ErrBadParam) {
		t.Errorf("31 landmarks of 30 rows: %v", err)
	}
}
