package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// numericVerb is a fmt verb that writes a number.
var numericVerb = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[dfFgGeExXob]`)

// notShownNumbers are the places of the window's code that write a number
// not for a person to read as a quantity — an id, a file name, a key, a
// setting's stored value — by file and a piece of the line, with why.
var notShownNumbers = map[string]string{
	"form/list.go:%s[%d].%s":         "a JSON path",
	"new_scenario.go:%s-%d":          "a new scenario's id",
	"export_actions.go:%s-%d":        "a file name",
	"scenario_actions.go:-copy-%d":   "a duplicate's id",
	"report_cache.go:%s@%d":          "a map key",
	"viewing.go:strconv.FormatFloat": "a setting's stored value",
	"viewing.go:strconv.Itoa":        "a setting's stored value",
	"theme.go:strconv.FormatFloat":   "a setting's stored value",
	"report/uncertainty.go:seed %d":  "the seed, an identifier typed back as it is",
}

// Every number the window shows is written by package present or, for a
// whole number, by num.Group (whole): one format, thousands grouped, in
// every view. No fmt verb or strconv call of the window's code writes a
// number a person reads, except the few listed in notShownNumbers, which
// are not quantities.
func TestNumbersWrittenByPresent(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, _ := sel.X.(*ast.Ident)
			if pkg == nil {
				return true
			}
			where := fset.Position(call.Pos())
			check := func(what string) {
				key := filepath.ToSlash(path) + ":" + what
				if _, ok := notShownNumbers[key]; ok {
					seen[key] = true
					return
				}
				t.Errorf("%s: %s writes a number outside package present (use present's writers or whole)", where, what)
			}
			switch {
			case pkg.Name == "fmt" && len(call.Args) > 0:
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				format, _ := strconv.Unquote(lit.Value)
				if numericVerb.MatchString(format) {
					for k := range notShownNumbers {
						if file, piece, _ := strings.Cut(k, ":"); file == filepath.ToSlash(path) && strings.Contains(format, piece) {
							check(piece)
							return true
						}
					}
					check(format)
				}
			case pkg.Name == "strconv" && strings.HasPrefix(sel.Sel.Name, "Format") || pkg.Name == "strconv" && sel.Sel.Name == "Itoa":
				// num.Group(strconv.Itoa(n)) is the grouping itself.
				if len(stack) >= 2 {
					if outer, ok := stack[len(stack)-2].(*ast.CallExpr); ok {
						if s, ok := outer.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Group" {
							return true
						}
					}
				}
				check("strconv." + sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range notShownNumbers {
		if !seen[k] {
			t.Errorf("notShownNumbers lists %s, which the code no longer has: remove it", k)
		}
	}
}
