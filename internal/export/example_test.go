package export_test

import (
	"fmt"
	"log"

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
	// I2 = D2*E2+F2 = 280.00
	// J2 = IF(runs_per_month>0,I2+G2/runs_per_month,I2) = 292.50
	// K2 = H2+horizon_months*(G2+runs_per_month*I2) = 14,040.00
}
