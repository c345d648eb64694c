//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownDescriptor reports whether path names one of this process's open
// descriptors through /proc (Linux's /proc/self/fd/N, which /dev/stdout,
// /dev/stderr and /dev/fd/N lead to), and which. Elsewhere /dev/fd/N is a
// character device and is written as one.
func ownDescriptor(path string) (int, bool) {
	base := filepath.Base(path)
	fd, err := strconv.Atoi(base)
	if err != nil || fd < 0 || strconv.Itoa(fd) != base {
		return 0, false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return 0, false
	}
	// /proc/self resolves to /proc/PID, /proc/thread-self to
	// /proc/PID/task/TID.
	rest, ok := strings.CutPrefix(dir, "/proc/"+strconv.Itoa(os.Getpid())+"/")
	if !ok {
		return 0, false
	}
	if rest == "fd" {
		return fd, true
	}
	if tid, ok := strings.CutPrefix(rest, "task/"); ok {
		tid, ok = strings.CutSuffix(tid, "/fd")
		if _, err := strconv.Atoi(tid); ok && err == nil {
			return fd, true
		}
	}
	return 0, false
}

// dupDescriptor returns a duplicate of descriptor fd (sharing its offset
// and append mode), to be closed by the caller while fd stays open.
func dupDescriptor(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, &os.PathError{Op: "dup", Path: name, Err: err}
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}

// checkInPlace checks that an output written in place can be written:
// the descriptor is open, or the device or FIFO grants write permission.
func checkInPlace(t target) error {
	if t.fd >= 0 {
		f, err := dupDescriptor(t.fd, t.path)
		if err != nil {
			return err
		}
		return f.Close()
	}
	const wOK = 2 // access(2)'s W_OK
	if err := syscall.Access(t.path, wOK); err != nil {
		return &os.PathError{Op: "open", Path: t.path, Err: err}
	}
	return nil
}
