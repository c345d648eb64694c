package hibust

import (
	"fmt"
	"io"
)

// WriteSummary prints the fitted model: a line with the MCCK clusters of
// the chosen partition, their simplified silhouette and the number of
// confidence-labelled rows, then the tree (WriteTree with names).
func (m *Model) WriteSummary(w io.Writer, names []string) error {
	if _, err := fmt.Fprintf(w, "hibust   %d MCCK clusters (silhouette %.3f), %d confidence-labelled rows; tree:\n", m.Clusters, m.Silhouette, len(m.confident)); err != nil {
		return err
	}
	return m.WriteTree(w, names)
}
