//go:build !unix

package atomicfile

import (
	"errors"
	"os"
)

// ownDescriptor: descriptors are not named by paths here.
func ownDescriptor(path string) (int, bool) { return 0, false }

func dupDescriptor(fd int, name string) (*os.File, error) {
	return nil, &os.PathError{Op: "dup", Path: name, Err: errors.ErrUnsupported}
}

// checkInPlace cannot check a device's permission here without opening it.
func checkInPlace(t target) error { return nil }
