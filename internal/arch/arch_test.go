// Package arch holds the test of the packages' layering: arrows point
// down only, so the graph has no cycles and no upward arrows, and the
// faces (the window, the command line) import no other face.
package arch

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layer ranks each package of the module: a package may import only
// packages of a lower rank. A new package must be given its rank here.
var layer = map[string]int{
	// Leaves: no package of the module below them.
	"assets":                       0,
	"scenarios":                    0,
	"internal/version":             0,
	"internal/celltext":            0,
	"internal/atomicfile":          0,
	"internal/testtool":            0,
	"internal/bom":                 0,
	"internal/document":            0,
	"internal/present/num":         0,
	"internal/costid":              1,
	"internal/costid/internal/gen": 2,
	// The scenario, then the catalog it is priced with.
	"internal/scenario": 1,
	"internal/catalog":  2,
	// The engine and what reads its report.
	"internal/model":           3,
	"internal/model/modeltest": 4,
	"internal/present":         4,
	"internal/decide":          5,
	"internal/brief":           6,
	"internal/chart":           6,
	"internal/estimate":        6,
	// Storage, the workbook, the planner over them.
	"internal/store":  2,
	"internal/export": 7,
	"internal/app":    8,
	// The window's widgets and layouts, then the report's views and the
	// scenario's form over them, below the window's shell.
	"internal/ui/widgets": 7,
	"internal/ui/report":  8,
	"internal/ui/form":    8,
	// What the tests of the window's packages share: hand-built reports
	// and readers of what widgets show.
	"internal/ui/uitest": 8,
	// The faces, and the command that starts them.
	"internal/cli":  9,
	"internal/ui":   9,
	"cmd/hostplan":  10,
	"internal/arch": 0,
}

func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "dist" || name == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		rank, known := layer[rel]
		if !known {
			if !seen[rel] {
				t.Errorf("package %s has no rank in arch_test.go's layer table: give it one", rel)
			}
			seen[rel] = true
			return nil
		}
		seen[rel] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		// External test packages (package x_test) stand above their
		// package and may import anything of a lower rank than the faces.
		test := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != "hostplan" && !strings.HasPrefix(p, "hostplan/") {
				continue
			}
			dep := strings.TrimPrefix(strings.TrimPrefix(p, "hostplan"), "/")
			drank, ok := layer[dep]
			if !ok {
				continue // reported as a package of its own
			}
			if test && drank < layer["internal/cli"] && !slices.Contains([]string{"internal/cli", "internal/ui"}, dep) {
				continue
			}
			if drank >= rank && dep != rel {
				t.Errorf("%s (rank %d) imports %s (rank %d): arrows point down only", filepath.ToSlash(mustRel(root, path)), rank, dep, drank)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range layer {
		if !seen[p] {
			t.Errorf("arch_test.go ranks %s, which has no Go files", p)
		}
	}
}

func mustRel(root, path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return r
}
