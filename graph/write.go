package graph

import (
	"bufio"
	"io"
	"strconv"
)

// WriteCSV writes the lists as CSV: a header row,neighbour,distance, then
// K lines a row (rows 0-based, nearest first, the distance at full
// precision).
func (nb *Neighbors) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("row,neighbour,distance\n")
	var b []byte
	for i := 0; i < nb.N; i++ {
		for r := 0; r < nb.K; r++ {
			p := i*nb.K + r
			b = strconv.AppendInt(b[:0], int64(i), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(nb.Index[p]), 10)
			b = append(b, ',')
			b = strconv.AppendFloat(b, nb.Dist[p], 'g', -1, 64)
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	return bw.Flush()
}
