package model

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The package doc's map of files names every non-test file of the package,
// and only those.
func TestPackageDocMapsFiles(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^//\t([a-z_]+\.go) `).FindAllStringSubmatch(string(doc), -1) {
		listed[m[1]] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		if !listed[f] {
			t.Errorf("%s is not in the file map of the package doc (doc.go)", f)
		}
		delete(listed, f)
	}
	for f := range listed {
		t.Errorf("the package doc maps %s, which is not a file of the package", f)
	}
}
