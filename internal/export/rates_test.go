package export

import (
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// namedRow is the row of the cell named name on sheet.
func namedRow(t *testing.T, f *excelize.File, sheet, name string) int {
	t.Helper()
	for _, dn := range f.GetDefinedName() {
		if dn.Name == name {
			s, ref, _ := strings.Cut(strings.ReplaceAll(dn.RefersTo, "$", ""), "!")
			if s != sheet {
				t.Fatalf("%s is on %s, not %s", name, s, sheet)
			}
			_, row, err := excelize.CellNameToCoordinates(ref)
			if err != nil {
				t.Fatal(err)
			}
			return row
		}
	}
	t.Fatalf("no defined name %s", name)
	return 0
}

// TestExchangeRateDriver: in the example in euros, every converted
// catalog price is its price in dollars times the rate, a named driver;
// editing the rate moves every direction's cost as the engine moves it
// when the scenario sets that rate (excelize recalculates).
func TestExchangeRateDriver(t *testing.T) {
	var ex *example
	for _, e := range exampleReports(t) {
		if e.r.Currency == "EUR" && len(e.r.ExchangeRates) > 0 {
			ex = &e
			break
		}
	}
	if ex == nil {
		t.Fatal("no example in euros")
	}
	f := mustWorkbook(t, ex.s, ex.r)
	x := ex.r.ExchangeRates[0]
	name := rateName(x.From, x.To)
	row := namedRow(t, f, sheetDrivers, name)
	if got := calc(t, f, sheetDrivers, cell(colDrvUsed, row)); !closeTo(got, x.Rate, 1e-12) {
		t.Fatalf("%s = %v, the engine's rate is %v", name, got, x.Rate)
	}
	if v, _ := f.GetCellValue(sheetDrivers, cell(colDrvAsOf, row)); v != x.AsOf {
		t.Errorf("%s as of %q, want %q", name, v, x.AsOf)
	}
	// Every converted price reads the rate.
	converted := 0
	for _, d := range ex.r.Directions {
		for _, in := range d.CostInputs {
			if in.FromCurrency != x.From || in.Kind == model.InputPlan || in.Kind == model.InputFigure || in.Driver == costid.GPUHoursPerRun {
				continue
			}
			r := namedRow(t, f, sheetDrivers, in.Name)
			fo, _ := f.GetCellFormula(sheetDrivers, cell(colDrvLikely, r))
			if want := in.Name + "_" + strings.ToLower(x.From) + "*" + name; fo != want {
				t.Errorf("%s: Likely is %q, want %q", in.Name, fo, want)
			}
			converted++
		}
	}
	if converted == 0 {
		t.Fatal("no converted price on Drivers")
	}

	// The rate at 0.80, in the workbook and in the scenario.
	const rate = 0.80
	if err := f.SetCellValue(sheetDrivers, cell(colDrvLikely, row), rate); err != nil {
		t.Fatal(err)
	}
	s := *ex.s
	s.ExchangeRates = []scenario.ExchangeRate{{Currency: x.From, Rate: rate, AsOf: x.AsOf, Source: "test"}}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Evaluate(&s, cat)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i, d := range r.Directions {
		if d.CostModel == costid.NoCostModel {
			continue
		}
		got := calc(t, f, sheetCosts, cell(colHorizon, costRow(i)))
		if !closeTo(got, d.CostHorizon, relTol) {
			t.Errorf("%s: cost over the horizon at rate %v = %s in the workbook, %s by the engine (%s at export)", d.Direction, rate,
				strconv.FormatFloat(got, 'f', 2, 64), strconv.FormatFloat(d.CostHorizon, 'f', 2, 64), strconv.FormatFloat(ex.r.Directions[i].CostHorizon, 'f', 2, 64))
		}
		if d.CostHorizon != ex.r.Directions[i].CostHorizon {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no direction's cost moved with the rate")
	}
}
