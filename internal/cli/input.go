package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"hostplan/internal/bom"
	"hostplan/internal/scenario"
)

// readLimited reads the file at path when it holds at most limit bytes.
// A regular file's size is checked before reading; anything else (a pipe,
// a device) is read through an io.LimitReader of limit+1 bytes. So a file
// too large is refused with at most limit+1 bytes in memory, and the
// refusal names the file and the limit. what names the kind of file for
// the message ("a scenario file"). A leading byte order mark is dropped
// (bom.Strip).
func readLimited(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	defer f.Close()
	tooLarge := func(size string) error {
		return fileErrors{file: path, errs: scenario.Errors{{Path: "(file)",
			Problem: "is " + size + ", too large to read",
			Allowed: fmt.Sprintf("%s of at most %s bytes (%s)", what, scenario.Num(float64(limit)), mebibytes(limit))}}}
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	if fi.IsDir() {
		return nil, usagef("%s: cannot read: is a directory", path)
	}
	if fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, tooLarge(scenario.Num(float64(fi.Size())) + " bytes")
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, usagef("%s: cannot read: %v", path, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge("over " + scenario.Num(float64(limit)) + " bytes")
	}
	return bom.Strip(b), nil
}

// mebibytes writes a limit in MiB ("1 MiB").
func mebibytes(n int64) string {
	return scenario.Num(float64(n)/(1<<20)) + " MiB"
}
