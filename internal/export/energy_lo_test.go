package export

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/testtool"
)

// energyExample is the nightly batch example with a team that runs a
// datacentre, so that owned hardware, the cloud, a managed service and
// hybrid all have energy figures.
func energyExample(t *testing.T) (*scenario.Scenario, *model.Report) {
	t.Helper()
	var s *scenario.Scenario
	for _, ex := range exampleReports(t) {
		if ex.name == "nightly-document-batch" {
			s = ex.s
		}
	}
	if s == nil {
		t.Fatal("no nightly-document-batch example")
	}
	s.Dimensions.Operations.Skills = append(s.Dimensions.Operations.Skills, "datacentre")
	s.Dimensions.Economics.BudgetCap = scenario.Value{}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"managed", "cloud", "on_prem"} {
		if x := r.Direction(d); x.Energy == nil {
			t.Fatalf("%s has no energy (feasible %v, %v)", d, x.Feasible, x.Reasons)
		}
	}
	return s, r
}

// namedCell is the sheet and cell a defined name of f refers to.
func namedCell(t *testing.T, f *excelize.File, name string) (string, string) {
	t.Helper()
	for _, n := range f.GetDefinedName() {
		if n.Name == name {
			sheet, ref, _ := strings.Cut(n.RefersTo, "!")
			return strings.Trim(sheet, "'"), strings.ReplaceAll(ref, "$", "")
		}
	}
	t.Fatalf("no defined name %s", name)
	return "", ""
}

// TestLibreOfficeRecalculatesEnergy opens the workbook in LibreOffice,
// which recalculates the Energy sheet's formulas: kWh and kg CO2e per run
// and over the horizon equal the model's within 1e-6. A second copy with
// the cloud's grid intensity set to 100 g/kWh and the on-premises PUE (a
// cost driver on Drivers) set to 2 follows them: the sheet's formulas are
// live. Skipped with -short or when soffice is not installed.
func TestLibreOfficeRecalculatesEnergy(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	s, r := energyExample(t)
	dir := t.TempDir()
	home, out := filepath.Join(dir, "home"), filepath.Join(dir, "csv")
	plain, changed := filepath.Join(dir, "energy.xlsx"), filepath.Join(dir, "changed.xlsx")
	for _, p := range []string{plain, changed} {
		if err := WriteWorkbook(p, s, r); err != nil {
			t.Fatal(err)
		}
	}
	var pueName string
	for _, in := range r.Direction("on_prem").CostInputs {
		if in.Driver == costid.PUE {
			pueName = in.Name
		}
	}
	f, err := excelize.OpenFile(changed)
	if err != nil {
		t.Fatal(err)
	}
	sh, c := namedCell(t, f, energyName("cloud", "grid_g_co2e_per_kwh"))
	if err := f.SetCellFloat(sh, c, 100, -1, 64); err != nil {
		t.Fatal(err)
	}
	sh, c = namedCell(t, f, pueName)
	if err := f.SetCellFloat(sh, c, 2, -1, 64); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	convertCSV(t, soffice, home, out, plain, changed)
	for _, tc := range []struct {
		name    string
		changed bool
	}{{"energy", false}, {"changed", true}} {
		rows, err := readCSV(filepath.Join(out, tc.name+"-"+sheetEnergy+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for i, row := range rows {
			if i == 0 || len(row) < colEnKgHorizon {
				continue
			}
			d := r.Direction(row[colEnDirection-1])
			if d == nil || d.Energy == nil {
				continue
			}
			seen++
			e := *d.Energy
			if tc.changed {
				switch d.Direction {
				case "cloud":
					e.KgCO2ePerRun, e.KgCO2eHorizon = e.KWhPerRun*0.1, e.KWhHorizon*0.1
				case "on_prem":
					k := 2 / e.PUE
					e.KWhPerRun, e.KWhHorizon, e.KgCO2ePerRun, e.KgCO2eHorizon = e.KWhPerRun*k, e.KWhHorizon*k, e.KgCO2ePerRun*k, e.KgCO2eHorizon*k
				}
			}
			for _, w := range []struct {
				col  int
				want float64
			}{{colEnKWhRun, e.KWhPerRun}, {colEnKWhHorizon, e.KWhHorizon}, {colEnKgRun, e.KgCO2ePerRun}, {colEnKgHorizon, e.KgCO2eHorizon}} {
				got, err := csvNumber(rows, w.col, i+1)
				if err != nil || !closeTo(got, w.want, relTol) {
					t.Errorf("%s: LibreOffice Energy!%s (%s) = %v (%v), want %.12g", tc.name, cell(w.col, i+1), d.Direction, got, err, w.want)
				}
			}
		}
		want := 0
		for _, d := range r.Directions {
			if d.Energy != nil {
				want++
			}
		}
		if seen != want || want < 3 {
			t.Errorf("%s: %d energy rows recalculated, want %d: %q", tc.name, seen, want, rows)
		}
	}
}
