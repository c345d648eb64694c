package dataset

import (
	"path/filepath"
	"strings"
)

// DisplayName is a data set's name (Dataset.Name) as a picture's title
// shows it: the file name without its directory and its data extensions
// (".csv", ".svm.gz"), and an embedded set's name without "embedded:", so
// that titles never carry a path.
func DisplayName(name string) string {
	base := filepath.Base(strings.TrimPrefix(name, "embedded:"))
	if base == "." || base == string(filepath.Separator) {
		return name
	}
	for {
		ext := filepath.Ext(base)
		if ext == "" || ext == base || len(ext) > 6 {
			return base
		}
		switch strings.ToLower(ext) {
		case ".gz", ".csv", ".tsv", ".txt", ".svm", ".libsvm", ".svmlight", ".dat", ".data":
			base = strings.TrimSuffix(base, ext)
		default:
			return base
		}
	}
}
