package export_test

import (
	"fmt"
	"log"
	"time"

	"hostplan/internal/export"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

func ExampleWorkbook() {
	s := &scenario.Scenario{ID: "demo", Name: "Demo", Currency: "EUR"}
	r := &model.Report{
		ScenarioID: "demo", Currency: "EUR", HorizonMonths: 12,
		Workload: model.WorkloadSummary{RunsPerMonth: 4},
		Directions: []model.DirectionResult{{
			Direction: "cloud", Title: "Cloud IaaS", Feasible: true,
			GPUHoursPerRun: 100, VariablePricePerGPUHour: 2.5, OtherCostPerRun: 30, MonthlyFixedCost: 50,
		}},
	}
	f, err := export.Workbook(s, r)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	for _, c := range []string{"I2", "J2", "K2"} {
		formula, _ := f.GetCellFormula("Costs", c)
		value, _ := f.CalcCellValue("Costs", c)
		fmt.Printf("%s = %s = %s\n", c, formula, value)
	}
	// Output:
	// I2 = D2*E2+F2 = €280.00
	// J2 = IF(runs_per_month>0,I2+G2/runs_per_month,I2) = €292.50
	// K2 = H2+horizon_months*(G2+runs_per_month*I2) = €14,040.00
}

func ExampleWorkbookWith() {
	s := &scenario.Scenario{ID: "demo", Name: "Demo", Currency: "EUR"}
	r := &model.Report{
		ScenarioID: "demo", Currency: "EUR", HorizonMonths: 12,
		Workload:   model.WorkloadSummary{RunsPerMonth: 4},
		Directions: []model.DirectionResult{{Direction: "cloud", Title: "Cloud IaaS", Feasible: true}},
	}
	x := &export.Extras{
		Source: "revision 1 of scenario demo in the store hostplan.db",
		Lineage: []scenario.Revision{{
			Number: 1, Time: time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC),
			RevisionMeta: scenario.RevisionMeta{Author: "ana", Note: "first draft", ModelVersion: "0.3.0", CatalogAsOf: "2025-01-15"},
		}},
	}
	f, err := export.WorkbookWith(s, r, x)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	fmt.Println(f.GetSheetList())
	row, _ := f.GetRows("Lineage")
	fmt.Println(row[6][:4])
	// Output:
	// [Summary Drivers Costs Energy Monthly Comparisons Checks Audit Inputs Options Scaling Uncertainty Sensitivity Notes Sources Lineage]
	// [1 2026-03-01 09:30:00 ana first draft]
}
