package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/svcluster"
)

func TestSVCIrisSweep(t *testing.T) {
	dir := t.TempDir()
	out, tree, png := filepath.Join(dir, "l.csv"), filepath.Join(dir, "t.json"), filepath.Join(dir, "p.png")
	var so, se bytes.Buffer
	err := run(context.Background(), []string{"svc", "--data", "iris", "--pca", "2", "--sweep", "--clusters", "3",
		"--out", out, "--tree", tree, "--plot", png, "--quiet"}, &so, &se)
	if err != nil {
		t.Fatalf("%v\n%s", err, se.String())
	}
	s := so.String()
	m := regexp.MustCompile(`misclassified (\d+) of 150`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no misclassification line in\n%s", s)
	}
	if mis, _ := strconv.Atoi(m[1]); mis > 15 {
		t.Errorf("iris sweep: %d misclassified, want ≤ 15\n%s", mis, s)
	}
	if !strings.Contains(s, "clusters   3,") || !strings.Contains(s, "chosen     level") {
		t.Errorf("output lacks the chosen 3-cluster level:\n%s", s)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 151 || lines[0] != "row,cluster" {
		t.Errorf("labels file: %d lines, header %q", len(lines), lines[0])
	}
	for _, f := range []string{tree, png} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	j, _ := os.ReadFile(tree)
	if !bytes.Contains(j, []byte(`"newick"`)) || !bytes.Contains(j, []byte(`"levels"`)) {
		t.Errorf("tree JSON lacks levels/newick")
	}
}

func TestSVCSingleNoise(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l.csv")
	var so, se bytes.Buffer
	err := run(context.Background(), []string{"svc", "--data", "iris", "--pca", "2", "--q", "7", "--p", "0.6",
		"--noise", "--labelling", "knn", "--out", out, "--quiet"}, &so, &se)
	if err != nil {
		t.Fatalf("%v\n%s", err, se.String())
	}
	b, _ := os.ReadFile(out)
	if n := strings.Count(string(b), ",-1\n"); n != 77 {
		t.Errorf("%d noise rows, want the 77 bounded SVs\n%s", n, so.String())
	}
}

func TestSVCBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l.csv")
	for _, tc := range []struct {
		args []string
		want error
	}{
		{[]string{"--q", "-1", "--C", "1"}, svcluster.ErrBadQ},
		{[]string{"--q", "0", "--C", "1"}, svcluster.ErrBadQ},
		{[]string{"--q", "1", "--C", "2"}, svcluster.ErrBadC},
		{[]string{"--q", "1", "--C", "0.001"}, svcluster.ErrBadC},
		{[]string{"--q", "1"}, errUsage},
		{[]string{"--sweep", "--q", "1"}, errUsage},
		{[]string{"--q", "1", "--C", "1", "--clusters", "3"}, errUsage},
		{[]string{"--q", "1", "--C", "1", "--kernel", "poly"}, errUsage},
		{[]string{"--q", "1", "--C", "1", "--labelling", "magic"}, errUsage},
		{[]string{"--q", "1", "--C", "1", "--plot", filepath.Join(t.TempDir(), "x.png")}, errUsage}, // 4-D data
	} {
		args := append([]string{"svc", "--data", "iris", "--out", out, "--quiet"}, tc.args...)
		var so, se bytes.Buffer
		err := run(context.Background(), args, &so, &se)
		if !errors.Is(err, tc.want) {
			t.Errorf("%v: error %v, want %v", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed run wrote %s", out)
	}
}

// svc --sweep --clusters K without a level of exactly K clusters writes the
// closest level with a warning saying how far and what widens the search
// (glass and vehicle reach no level of the requested count).
func TestSVCClosestLevel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l.csv")
	stdout, stderr, err := arbor(t, "svc", "--data", "iris", "--scale", "std", "--sweep", "--clusters", "3", "--out", out, "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "no level of the sweep has exactly 3 clusters; wrote level 19 with 2 (1 fewer), the closest") || !strings.Contains(stderr, "--qfactor closer to 1 (now 1.2)") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if !strings.Contains(stdout, "chosen     level 19:") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if raw, err := os.ReadFile(out); err != nil || strings.Count(string(raw), "\n") != 151 {
		t.Errorf("labels: %v", err)
	}
}
