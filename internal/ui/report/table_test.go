package report

import (
	"testing"

	"hostplan/internal/model"
)

// The report table shows each direction's energy and emissions over the
// horizon, marked as an estimate where one is; a ruled-out direction
// shows none.
func TestEnergyColumn(t *testing.T) {
	r := &model.Report{Currency: "USD", Directions: []model.DirectionResult{
		{Direction: "cloud", Title: "Cloud IaaS", Feasible: true, Energy: &model.Energy{KWhHorizon: 108_400, KgCO2eHorizon: 46_830}},
		{Direction: "managed", Title: "Managed service", Feasible: true, Energy: &model.Energy{KWhHorizon: 2_831, KgCO2eHorizon: 1_036, Estimate: true}},
		{Direction: "on_prem", Title: "On-premises"},
	}}
	rows := reportRows(r, "")
	for i, want := range []string{"108 · 46.8", "≈ 2.83 · 1.04", NoValue} {
		if got := rows[i].cells[colEnergy]; got != want {
			t.Errorf("row %d energy %q, want %q", i, got, want)
		}
	}
}
