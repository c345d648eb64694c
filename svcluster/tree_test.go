package svcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// TestHierarchyTree checks the tree of clusters of a sweep: every level's
// clusters are accounted for, parents and children agree, heights grow
// downwards, the Newick string is balanced and the JSON round-trips.
func TestHierarchyTree(t *testing.T) {
	X, _ := coreRings(1)
	h, err := Sweep{Clusters: 3}.Fit(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	if h.Chosen < 0 || h.Levels[h.Chosen].NClusters != 3 {
		t.Fatalf("sweep did not stop at 3 clusters: %s", h.Stop)
	}
	for i := 1; i < len(h.Levels); i++ {
		if h.Levels[i].Q <= h.Levels[i-1].Q {
			t.Fatalf("levels not in increasing q at %d", i)
		}
	}
	leaves := 0
	for _, nd := range h.Nodes {
		if nd.Parent >= 0 {
			p := h.Nodes[nd.Parent]
			found := false
			for _, c := range p.Children {
				found = found || c == nd.ID
			}
			if !found || p.Height > nd.Height || nd.First < p.First {
				t.Errorf("node %d and parent %d disagree: %+v %+v", nd.ID, p.ID, nd, p)
			}
		}
		if len(nd.Children) == 0 && nd.Last == len(h.Levels)-1 {
			leaves++
		}
	}
	if leaves != h.Levels[len(h.Levels)-1].NClusters {
		t.Errorf("%d leaves alive at the last level, which has %d clusters", leaves, h.Levels[len(h.Levels)-1].NClusters)
	}
	nw := h.Newick()
	if strings.Count(nw, "(") != strings.Count(nw, ")") || !strings.HasSuffix(nw, ";") {
		t.Errorf("unbalanced Newick %q", nw)
	}
	var buf bytes.Buffer
	if err := h.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Levels []Level
		Nodes  []Node
		Newick string
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Levels) != len(h.Levels) || len(back.Nodes) != len(h.Nodes) || back.Newick != nw {
		t.Errorf("JSON round trip lost levels or nodes")
	}
	var tab bytes.Buffer
	if err := h.WriteTable(&tab); err != nil || strings.Count(tab.String(), "\n") != len(h.Levels)+1 {
		t.Errorf("table: %v\n%s", err, tab.String())
	}
}

// TestSweepGOMAXPROCS: the whole hierarchy is identical for 1 and 2 workers.
func TestSweepGOMAXPROCS(t *testing.T) {
	Z, _ := irisPCA2(t)
	var out []string
	for _, p := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(p)
		h, err := Sweep{Clusters: 3}.Fit(context.Background(), Z)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := h.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		for _, l := range h.Levels {
			for _, v := range l.Labels {
				b.WriteByte(byte('0' + v + 1))
			}
		}
		out = append(out, b.String())
	}
	if out[0] != out[1] {
		t.Error("GOMAXPROCS 1 and 2 give different hierarchies")
	}
}
