package atomicfile_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"hostplan/internal/atomicfile"
)

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "plan.csv")

	err = atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "direction,cost")
		return err
	})
	fmt.Println(err)
	// A backup never replaces a file.
	err = atomicfile.WriteNew(path, 0o600, func(io.Writer) error { return nil })
	fmt.Println(err == nil)
	b, _ := os.ReadFile(path)
	fmt.Print(string(b))
	// Output:
	// <nil>
	// false
	// direction,cost
}
