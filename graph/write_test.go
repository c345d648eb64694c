package graph

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestNeighborsWriteCSV: the file reads back to the lists, K lines a row,
// nearest first, distances exactly.
func TestNeighborsWriteCSV(t *testing.T) {
	X := mat.NewDense(5, 1, []float64{0, 1, 3, 10, 11.5})
	nb, err := KNearest(context.Background(), X, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := nb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 1+5*2 || recs[0][0] != "row" || recs[0][1] != "neighbour" || recs[0][2] != "distance" {
		t.Fatalf("%v, %v", recs, err)
	}
	for p, r := range recs[1:] {
		d, _ := strconv.ParseFloat(r[2], 64)
		if r[0] != strconv.Itoa(p/2) || r[1] != strconv.Itoa(int(nb.Index[p])) || d != nb.Dist[p] {
			t.Fatalf("line %d: %v, want %d,%d,%v", p+1, r, p/2, nb.Index[p], nb.Dist[p])
		}
	}
	if recs[1][1] != "1" || recs[1][2] != "1" || recs[2][1] != "2" || recs[2][2] != "3" {
		t.Fatalf("row 0: %v %v, want 1,1 then 2,3", recs[1], recs[2])
	}
}
