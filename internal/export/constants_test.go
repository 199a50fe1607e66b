package export

import (
	"archive/zip"
	"bytes"
	"html"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
)

// formulaRE finds a formula in a sheet's XML.
var formulaRE = regexp.MustCompile(`<f(?: [^>]*)?>([^<]*)</f>`)

// allFormulas is every formula of every sheet of f, by sheet file.
func allFormulas(t *testing.T, f *excelize.File) map[string][]string {
	t.Helper()
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, zf := range z.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range formulaRE.FindAllSubmatch(b, -1) {
			out[zf.Name] = append(out[zf.Name], html.UnescapeString(string(m[1])))
		}
	}
	return out
}

// numberRE finds a number literal in a formula: digits not part of a name
// or a cell reference (after a letter, a digit, $, _ or .).
var numberRE = regexp.MustCompile(`(^|[^A-Za-z0-9_$.])([0-9]+(?:\.[0-9]*)?(?:[Ee][+-]?[0-9]+)?)`)

// quotedRE is a text in a formula.
var quotedRE = regexp.MustCompile(`"[^"]*"`)

// restatedConstants lists the number literals in formula that equal one
// of the engine's constants (costid.Constants), which a formula reads from
// its named cell instead.
func restatedConstants(formula string) []string {
	var out []string
	for _, m := range numberRE.FindAllStringSubmatch(quotedRE.ReplaceAllString(formula, `""`), -1) {
		x, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		for _, d := range costid.Constants() {
			if k, _ := costid.Constant(d); math.Abs(x-k) <= 1e-12*k {
				out = append(out, m[2]+" ("+d.String()+")")
			}
		}
	}
	return out
}

// TestNoRestatedConstants: no formula of any example's workbook writes one
// of the engine's constants (the hours in a month, the seconds to stage a
// file …) as a number; each reads its named cell, which holds the engine's
// value.
func TestNoRestatedConstants(t *testing.T) {
	for _, f := range []string{"A1*730", "IF(x>0,y/(n*730*(z)),0)", "B2*0.005/3600", "x/30.4375"} {
		if len(restatedConstants(f)) == 0 {
			t.Errorf("%s: the check finds no restated constant", f)
		}
	}
	for _, f := range []string{"Costs!$K$730", "A730*2", `IF(a>0,"730",b)`, "cloud_7301", "hours_per_month*x"} {
		if got := restatedConstants(f); len(got) != 0 {
			t.Errorf("%s: the check finds %v", f, got)
		}
	}
	for _, ex := range exampleReports(t) {
		t.Run(ex.name, func(t *testing.T) {
			f := mustWorkbook(t, ex.s, ex.r)
			n := 0
			for sheet, fs := range allFormulas(t, f) {
				for _, fo := range fs {
					n++
					if got := restatedConstants(fo); len(got) > 0 {
						t.Errorf("%s: formula %s restates %s", sheet, fo, strings.Join(got, ", "))
					}
				}
			}
			if n == 0 {
				t.Fatal("no formulas found")
			}
			names := map[string]string{}
			for _, dn := range f.GetDefinedName() {
				names[dn.Name] = dn.RefersTo
			}
			for _, d := range costid.Constants() {
				k, _ := costid.Constant(d)
				ref, ok := names[d.String()]
				if !ok {
					t.Errorf("no named cell %s", d)
					continue
				}
				sheet, c, _ := strings.Cut(strings.ReplaceAll(ref, "$", ""), "!")
				v, err := f.GetCellValue(sheet, c, excelize.Options{RawCellValue: true})
				if err != nil {
					t.Fatal(err)
				}
				if x, err := strconv.ParseFloat(v, 64); err != nil || x != k {
					t.Errorf("%s (%s) holds %q, the engine's value is %v", d, ref, v, k)
				}
			}
		})
	}
}

// TestNoInlinedPlanFigures: the formulas of the break-even points write no
// figure of the engine's plan as a number — requests/s per replica, GPUs,
// the peak rate, the search's grid — but read each from a named cell; the
// only numbers left are 0, 1, 2 (a halving) and 24 (hours a day).
func TestNoInlinedPlanFigures(t *testing.T) {
	exs := append(exampleReports(t), daytime(t, mustCatalog(t)))
	for _, ex := range exs {
		b := build(ex.s, ex.r, nil)
		if b.err != nil {
			t.Fatal(b.err)
		}
		n := 0
		for row, cols := range b.written[sheetComparisons] {
			for col, w := range cols {
				if w != "=" {
					continue
				}
				fo, err := b.f.GetCellFormula(sheetComparisons, cell(col, row))
				if err != nil {
					t.Fatal(err)
				}
				n++
				for _, m := range numberRE.FindAllStringSubmatch(quotedRE.ReplaceAllString(fo, `""`), -1) {
					if x, _ := strconv.ParseFloat(m[2], 64); x != 0 && x != 1 && x != 2 && x != 24 {
						t.Errorf("%s: Comparisons!%s writes %s: %s", ex.name, cell(col, row), m[2], fo)
						break
					}
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s: no formulas on Comparisons", ex.name)
		}
	}
}

func mustCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}
