// Command gen writes cost_gen.go, the cost identity's definitions compiled
// to Go (costid.GeneratedCode), in the current directory: go generate runs
// it in internal/costid, built with the tag costid_gen so that it builds
// whatever the state of the file it replaces.
package main

import (
	"bytes"
	"fmt"
	"os"

	"hostplan/internal/costid"
)

func main() {
	src, err := costid.GeneratedCode(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "costid gen:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile("cost_gen.go"); err == nil && bytes.Equal(old, src) {
		return
	}
	if err := os.WriteFile("cost_gen.go", src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "costid gen:", err)
		os.Exit(1)
	}
}
