package model

import (
	"strings"
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// Owned hardware's staff grows with the nodes: the site's 0.094 FTE per
// node (12 people for a 128-node, 1,024-GPU cluster) at least 0.5 FTE —
// 0.5 FTE for one node, 6.016 for 64, where it was 1.0 FTE for any count.
func TestOnPremStaffPerNode(t *testing.T) {
	for _, c := range []struct {
		nodes int
		want  float64
	}{{1, 0.5}, {4, 0.5}, {8, 0.752}, {64, 6.016}} {
		s := onPremBase()
		s.Options.OnPrem.Nodes = c.nodes
		s.Dimensions.Operations.StaffFTE = scenario.Known(10)
		op := eval(t, s).Direction(scenario.OnPrem)
		if !near(op.StaffFTE, c.want, 1e-12) || !near(op.Drivers[costid.StaffPerMonth], c.want*137900/12, 1e-12) {
			t.Errorf("%d nodes: %.3f FTE, %.2f a month; want %.3f FTE", c.nodes, op.StaffFTE, op.Drivers[costid.StaffPerMonth], c.want)
		}
	}
	s := onPremBase()
	s.Options.OnPrem.StaffFTE = scenario.Known(2)
	if op := eval(t, s).Direction(scenario.OnPrem); op.StaffFTE != 2 {
		t.Errorf("options.on_prem.staff_fte 2: %.3f FTE", op.StaffFTE)
	}
}

// A node that draws more than a rack of the site takes cannot be placed:
// the DGX H100 class node draws up to 10.2 kW, so an 8 kW rack limit rules
// on-premises out; at the site's 20 kW one node goes to a rack.
func TestOnPremRackPowerLimit(t *testing.T) {
	s := onPremBase()
	s.Options.OnPrem.Nodes = 3
	op := eval(t, s).Direction(scenario.OnPrem)
	found := false
	for _, n := range op.Notes {
		if n.Code == NoteRacks {
			found = true
			if !strings.HasPrefix(n.Text, "3 nodes in 3 racks of at most 20 kW") {
				t.Errorf("racks note %q", n.Text)
			}
		}
	}
	if !found || !op.Feasible {
		t.Errorf("20 kW racks: feasible %v, notes %v", op.Feasible, NoteTexts(op.Notes))
	}
	s.Options.OnPrem.RackKW = scenario.Known(8)
	op = eval(t, s).Direction(scenario.OnPrem)
	if op.Feasible || len(op.Reasons) == 0 || op.Reasons[0].Code != ReasonRackPowerExceeded {
		t.Errorf("8 kW racks: feasible %v, reasons %+v", op.Feasible, op.Reasons)
	}
}

// Bought hardware carries the cost of the capital in it: the rate on half
// the capex, a year's ÷ 12 a month — at 10 %, 310,500 × 10 % ÷ 24 =
// 1,293.75 $; a lease carries none (its payment holds the lessor's).
func TestOnPremCostOfCapital(t *testing.T) {
	s := onPremBase()
	s.Options.OnPrem.CostOfCapital = scenario.Known(0.10)
	op := eval(t, s).Direction(scenario.OnPrem)
	if !near(op.Drivers[costid.CapitalChargePerMonth], 310500*0.10/24, 1e-12) || !near(op.Drivers[costid.Capex], 310500, 1e-12) {
		t.Errorf("capital %.2f a month on capex %.0f; want 1,293.75 on 310,500", op.Drivers[costid.CapitalChargePerMonth], op.Drivers[costid.Capex])
	}
	s.Options.OnPrem.Financing, s.Options.OnPrem.LeasePerNodeMonth = "lease", scenario.Known(9000)
	if op := eval(t, s).Direction(scenario.OnPrem); op.Drivers[costid.CapitalChargePerMonth] != 0 {
		t.Errorf("lease: capital %.2f a month, want none", op.Drivers[costid.CapitalChargePerMonth])
	}
}

// A one-off job is charged staff for the months it is in use, not the
// whole horizon: one run in 36 months (1/36 a month) of some 4 hours keeps
// the cloud for one month, so its 0.25 FTE costs 137,900 × 0.25 ÷ 12 ×
// 1 month = 2,872.92 $ over the horizon, not 103,425 $; owned hardware is
// staffed every month.
func TestStaffChargedForMonthsInUse(t *testing.T) {
	s := base()
	s.Workload.RunsPerMonth = scenario.Known(1.0 / 36)
	s.Dimensions.Economics.HorizonMonths = 36
	r := eval(t, s)
	cl, op := r.Direction(scenario.Cloud), r.Direction(scenario.OnPrem)
	if got := cl.Drivers[costid.StaffPerMonth] * 36; !near(got, 0.25*137900/12, 1e-9) {
		t.Errorf("cloud staff over 36 months = %.2f, want 2,872.92", got)
	}
	found := false
	for _, n := range cl.Notes {
		found = found || n.Code == NoteStaffMonths
	}
	if !found {
		t.Errorf("no %s note: %v", NoteStaffMonths, NoteTexts(cl.Notes))
	}
	if op.Drivers[costid.StaffShare] != 0 || !near(op.Drivers[costid.StaffPerMonth], op.StaffFTE*137900/12, 1e-12) {
		t.Errorf("on-premises staff %.2f a month for %.2f FTE: want every month", op.Drivers[costid.StaffPerMonth], op.StaffFTE)
	}
}

// Bought hardware keeps a value at the end of the horizon: over 36 of its
// 60 months of life, by hand, the capex 270,000 × 1.15 = 310,500 $ less a
// straight line, 310,500 × (1 − 36 ÷ 60) = 124,200 $. A purchase is
// credited it: its one-off cost is 310,500 − 124,200 = 186,300 $ and the
// bridge; depreciation charges 310,500 ÷ 60 = 5,175 $ for 36 months, the
// same 186,300 $, so over the horizon the two cost the same. Past the
// life nothing is left; a lease and hardware already owned have none.
func TestOnPremResidualValue(t *testing.T) {
	s := onPremBase()
	s.Dimensions.Economics.HorizonMonths = 36
	s.Options.OnPrem.Financing = "purchase"
	buy := eval(t, s).Direction(scenario.OnPrem)
	if !near(buy.Drivers[costid.ResidualValue], 124200, 1e-12) {
		t.Errorf("purchase, 36 of 60 months: residual value %.2f, want 124,200", buy.Drivers[costid.ResidualValue])
	}
	if got := buy.OneOffCost - buy.Drivers[costid.Bridge]; !near(got, 186300, 1e-12) {
		t.Errorf("purchase: one-off cost %.2f before the bridge, want 186,300", got)
	}
	var credit, total float64
	for _, l := range buy.Breakdown {
		total += l.Amount
		if l.Item == "Residual value" {
			credit = l.Amount
		}
	}
	if credit != -124200 || !near(total, buy.CostHorizon, 1e-9) {
		t.Errorf("breakdown: residual value line %.2f (want −124,200), lines add to %.2f of %.2f", credit, total, buy.CostHorizon)
	}
	if !hasNote(buy.Notes, NoteResidualValue, "residual value 124,200 (the capex 310,500 less a straight line over 36 of the life's 60 months, an estimate of its resale value): credited against the purchase") {
		t.Errorf("purchase notes %v", NoteTexts(buy.Notes))
	}
	s.Options.OnPrem.Financing = "depreciation"
	dep := eval(t, s).Direction(scenario.OnPrem)
	if !near(dep.Drivers[costid.DepreciationPerMonth]*36, 186300, 1e-12) || !near(dep.Drivers[costid.ResidualValue], 124200, 1e-12) {
		t.Errorf("depreciation: %.2f a month, residual %.2f", dep.Drivers[costid.DepreciationPerMonth], dep.Drivers[costid.ResidualValue])
	}
	if !near(dep.CostHorizon, buy.CostHorizon, 1e-12) {
		t.Errorf("36 months: depreciation %.2f, purchase %.2f; want the same", dep.CostHorizon, buy.CostHorizon)
	}
	if !hasNote(dep.Notes, NoteResidualValue, "residual value 124,200 (the capex 310,500 less a straight line over 36 of the life's 60 months, an estimate of its resale value): never charged") {
		t.Errorf("depreciation notes %v", NoteTexts(dep.Notes))
	}
	s.Dimensions.Economics.HorizonMonths = 72
	s.Options.OnPrem.Financing = "purchase"
	if op := eval(t, s).Direction(scenario.OnPrem); op.Drivers[costid.ResidualValue] != 0 || !near(op.OneOffCost-op.Drivers[costid.Bridge], 310500, 1e-12) ||
		!hasNote(op.Notes, NoteResidualValue, "residual value none: the 72-month horizon reaches") {
		t.Errorf("72 months: residual %.2f, one-off %.2f, notes %v", op.Drivers[costid.ResidualValue], op.OneOffCost, NoteTexts(op.Notes))
	}
	s.Dimensions.Economics.HorizonMonths = 36
	s.Options.OnPrem.Financing, s.Options.OnPrem.LeasePerNodeMonth = "lease", scenario.Known(9000)
	if op := eval(t, s).Direction(scenario.OnPrem); op.Drivers[costid.ResidualValue] != 0 || !hasNote(op.Notes, NoteResidualValue, "residual value none: the leased hardware is the lessor's") {
		t.Errorf("lease: residual %.2f, notes %v", op.Drivers[costid.ResidualValue], NoteTexts(op.Notes))
	}
	s.Options.OnPrem.Financing, s.Options.OnPrem.Existing = "", true
	if op := eval(t, s).Direction(scenario.OnPrem); op.Drivers[costid.ResidualValue] != 0 || op.OneOffCost != 0 || !hasNote(op.Notes, NoteExistingHardware, "existing hardware: no depreciation charged and no residual value counted") {
		t.Errorf("existing: residual %.2f, one-off %.2f, notes %v", op.Drivers[costid.ResidualValue], op.OneOffCost, NoteTexts(op.Notes))
	}
}

// hasNote reports whether notes hold one with code whose text begins with
// prefix.
func hasNote(notes []Note, code NoteCode, prefix string) bool {
	for _, n := range notes {
		if n.Code == code && strings.HasPrefix(n.Text, prefix) {
			return true
		}
	}
	return false
}
