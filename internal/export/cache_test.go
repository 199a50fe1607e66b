package export

import (
	"archive/zip"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestEveryFormulaCached reads the written file as a reader that does not
// recalculate would: every formula cell of every example's workbook holds
// a result (a number without a type, or a typed text or error), the
// numbers are the engine's, and every chart's caches hold the points its
// cells show.
func TestEveryFormulaCached(t *testing.T) {
	cellRE := regexp.MustCompile(`<c r="([A-Z]+[0-9]+)"([^>]*)>(.*?)</c>`)
	for _, ex := range exampleReports(t) {
		f := mustWorkbook(t, ex.s, ex.r)
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		parts := map[string]string{}
		for _, zf := range zr.File {
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			parts[zf.Name] = string(b)
		}
		formulas, costs := 0, 0
		for name, x := range parts {
			if !strings.HasPrefix(name, "xl/worksheets/sheet") {
				continue
			}
			for _, m := range cellRE.FindAllStringSubmatch(x, -1) {
				attrs, body := m[2], m[3]
				if !strings.HasPrefix(body, "<f>") {
					continue
				}
				formulas++
				v := regexp.MustCompile(`<v>(.*?)</v>`).FindStringSubmatch(body)
				if v == nil {
					t.Errorf("%s: %s %s: formula without a cached result", ex.name, name, m[1])
					continue
				}
				_, err := strconv.ParseFloat(v[1], 64)
				if !strings.Contains(attrs, `t="`) && err != nil {
					t.Errorf("%s: %s %s: number result %q is not a number", ex.name, name, m[1], v[1])
				}
			}
		}
		if formulas < 1000 {
			t.Errorf("%s: only %d formula cells", ex.name, formulas)
		}
		// The cached costs are the engine's: read back as a file.
		g, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range ex.r.Directions {
			for col, want := range map[int]float64{colVariable: d.VariableCostPerRun, colPerRun: d.CostPerRun, colHorizon: d.CostHorizon} {
				s, err := g.GetCellValue(sheetCosts, cell(col, costRow(i)), excelize.Options{RawCellValue: true})
				if err != nil {
					t.Fatal(err)
				}
				if got, err := strconv.ParseFloat(s, 64); err != nil || got != want {
					t.Errorf("%s: cached Costs!%s = %q, the engine %v", ex.name, cell(col, costRow(i)), s, want)
				}
				costs++
			}
		}
		g.Close()
		charts := 0
		for name, x := range parts {
			if !strings.HasPrefix(name, "xl/charts/chart") {
				continue
			}
			charts++
			if n := strings.Count(x, "<f>"); n == 0 || strings.Count(x, "<strCache>")+strings.Count(x, "<numCache><formatCode>General</formatCode><ptCount") != n {
				t.Errorf("%s: %s: %d references, not all with a cache", ex.name, name, n)
			}
			if !strings.Contains(x, "<pt idx=") {
				t.Errorf("%s: %s caches no point", ex.name, name)
			}
		}
		if charts == 0 || costs == 0 {
			t.Errorf("%s: %d charts, %d costs checked", ex.name, charts, costs)
		}
	}
}
