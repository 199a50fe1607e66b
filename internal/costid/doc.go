// Package costid is the cost identity: how a direction's cost figures
// follow from its cost drivers, defined once.
//
//   - Drivers (driver.go) name the quantities: inputs the directions or
//     the scenario set, and figures the identity defines. One table holds
//     each driver's name (a stable identifier: the report's JSON field and
//     the workbook's defined names), label, unit and help.
//   - Expressions (expr.go) are arithmetic over drivers. Eval evaluates
//     one; Formula writes it as a spreadsheet formula; Words writes it for
//     a reader.
//   - Definitions define each figure by an expression: identity.go the
//     figures every direction shares (the cost of a run, the monthly
//     spend, the cost over the horizon and by month), models.go how each
//     direction's cost model derives the four figures the identity reads
//     from its prices, rates, volumes, staff and hardware.
//   - cost_gen.go is the definitions compiled to Go, which the engine runs
//     thousands of times per Monte Carlo; go generate writes it
//     (internal/gen, GeneratedCode) and a test fails while it is stale.
//
// Package model sets the drivers' values from its plan and evaluates the
// definitions over them (CostModel.DeriveParts, DeriveFigures …); the
// workbook (package export) writes them as formulas, with the drivers'
// labels and units; docs/report.md lists them as Words renders them;
// hostplan reprice names drivers by Label and Unit. None of them restates the arithmetic, so they cannot drift apart.
//
// To make a figure follow a further driver: add the driver and its facts,
// use it in the figure's definition, set it in model's direction file and
// run go generate ./internal/costid.
package costid

//go:generate go run -tags costid_gen ./internal/gen
