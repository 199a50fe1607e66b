package model

import (
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// onPremBase is base() with one DGX H100 class node owned on site:
// 270,000 $ (catalog dgx-h100), 10.2 kW maximum, 7.5 kW typical, 8 GPUs;
// electricity 0.10 $/kWh and PUE 1.5 set by the scenario; the catalog site
// gives a 5-year life, maintenance 20 %/year, colocation 163.44 $/kW-month,
// idle draw 30 % of typical and 137,900 $ per FTE-year (BLS May 2024
// median pay of network and computer systems administrators, 96,800 $,
// ÷ 70.2 % wage share of compensation, ECEC June 2025; it was 129,000 $
// from the May 2022 median).
func onPremBase() *scenario.Scenario {
	s := base()
	s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1,
		ElectricityKWh: scenario.Known(0.10), PUE: scenario.Known(1.5)}
	s.Options.Cloud.PricePerGPUHr = scenario.Known(6)
	return s
}

// An on-premises year, by hand. The capex is the node and 15 % more for
// fabric, storage and installation (the site's infrastructure share):
// 270,000 × 1.15 = 310,500 $.
//
//	depreciation 310,500 ÷ 60 months          = 5,175.00 / month
//	maintenance  310,500 × 20 % ÷ 12          = 5,175.00
//	space        184.06 × 10.2 kW             = 1,877.412
//	idle power   7.5 kW × 30 % × 1.5 × 0.10 × 730 = 246.375
//	capital      310,500 × 8 % ÷ 24 (half the capex on average) = 1,035.00
//	staff        max(0.5, 0.094 × 1 node) = 0.5 FTE × 137,900 ÷ 12 = 5,745.833
//	fixed                                     = 19,254.620 / month
//	power above idle per GPU-hour 7.5 × 70 % ÷ 8 × 1.5 × 0.10 = 0.0984375 $
//
// The run (TestCloudRunByHand's 8 GPUs, 33.7041 GPU-hours, once a month)
// adds 3.3177 $ a month: 12 × 19,257.938 = 231,095.26 $. The node arrives
// after 16 weeks = 112 days = 3.6797 months (112 ÷ 30.4375); those months'
// runs are rented from the cloud at 33.7041 GPU-hours × 6 $ = 202.225 $ a
// run: 3.6797 × 202.225 = 744.12 $, so the year costs 231,839.38 $.
//
// The colocation price is CBRE's for H2 2024, 184.06 $ per kW-month (it
// was H2 2023's 163.44 $ before the site figures were refreshed).
func TestOnPremYearByHand(t *testing.T) {
	r := eval(t, onPremBase())
	op := r.Direction(scenario.OnPrem)
	fixed := 5175 + 5175 + 184.06*10.2 + 7.5*0.3*1.5*0.10*730 + 1035 + 0.5*137900/12
	power := 7.5 * 0.7 / 8 * 1.5 * 0.10
	gpuHours := 8 * 6e19 / 494.5e12 / 8 / 3600 // the all-reduce hides behind the backward pass (TestCloudRunByHand)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"fixed per month", op.MonthlyFixedCost, fixed},
		{"power per GPU-hour", op.VariablePricePerGPUHour, power},
		{"GPU-hours", op.GPUHoursPerRun, gpuHours},
		{"year", op.CostHorizon, 12*(fixed+gpuHours*power) + 112/(365.25/12)*gpuHours*6},
		{"bridge", op.OneOffCost, 112 / (365.25 / 12) * gpuHours * 6},
	} {
		if !near(c.got, c.want, 1e-9) {
			t.Errorf("%s = %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
	if !near(fixed, 19254.620333, 1e-9) || op.LeadTimeDays != 16*7 {
		t.Errorf("hand figure %.3f, lead time %g days", fixed, op.LeadTimeDays)
	}
	// Break-even utilisation against the cloud's 6 $/GPU-hour:
	// u* = 19,254.620 ÷ (8 × 730 × (6 − 0.0984375)) = 0.558670.
	u := r.Comparisons.Utilisation
	if u == nil || !u.Exists || !near(u.Utilisation, 19254.620333/(8*730*(6-0.0984375)), 1e-9) {
		t.Errorf("break-even utilisation %+v, want 0.558670", u)
	}
	// At that utilisation an owned GPU-hour costs what the cloud charges.
	s := onPremBase()
	s.Options.OnPrem.ExpectedUtilisation = scenario.Known(u.Utilisation)
	if got := eval(t, s).Direction(scenario.OnPrem).OwnedCost.EffectivePricePerGPUHour; !near(got, 6, 1e-9) {
		t.Errorf("effective price at the break-even utilisation = %.6f, want 6", got)
	}
}

// Buying the node (cash view) against renting: on-premises pays 310,500 $
// up front (the node and 15 % for fabric, storage and installation) and
// then 14,079.620 $ a month (fixed without depreciation, with the cost of
// capital) plus 3.3218 $ of power per run; the cloud pays its staff
// 2,872.92 $ plus 33.7041 GPU-hours × 6 $ = 202.225 $ a run. At one run a
// month renting is cheaper every month: no break-even. At 100 runs a
// month: cloud 2,872.92 + 20,222.45 = 23,095.36 a month; on-premises
// 14,079.62 + 331.77 = 14,411.39, and its one-off is the purchase plus the
// 3.6797 months of lead time bridged on the cloud, 3.6797 × 100 × 202.225
// = 74,412.0: 384,912.0 in all (over 72 months, past the 60-month life,
// no residual value is credited). The purchase pays back after 384,912.0 ÷
// (23,095.36 − 14,411.39) = 44.32 months (43.40 with the 129,000 $ staff
// cost of the May 2022 pay survey, 42.39 with H2 2023's colocation price as
// well, 163.44 $ per kW-month, before the site figures were refreshed).
func TestBreakEvenMonthByHand(t *testing.T) {
	s := onPremBase()
	s.Options.OnPrem.Financing = "purchase"
	s.Dimensions.Economics.HorizonMonths = 72
	if be := eval(t, s).Comparisons.BreakEvenMonths; len(be) != 0 && hasPair(be, "on_prem", "cloud") {
		t.Errorf("break-even at one run a month: %+v", be)
	}
	s.Workload.RunsPerMonth = scenario.Known(100)
	r := eval(t, s)
	op, cl := r.Direction(scenario.OnPrem), r.Direction(scenario.Cloud)
	bridge := 112 / (365.25 / 12) * 100 * cl.VariableCostPerRun
	if !near(op.OneOffCost, 310500+bridge, 1e-9) {
		t.Fatalf("purchase and bridge one-off %g, want %g", op.OneOffCost, 310500+bridge)
	}
	want := (310500 + bridge) / ((cl.MonthlyFixedCost + 100*cl.VariableCostPerRun) - (op.MonthlyFixedCost + 100*op.VariableCostPerRun))
	if !near(want, 44.32, 2e-3) {
		t.Errorf("hand solution %.3f months, want about 44.32", want)
	}
	found := false
	for _, b := range r.Comparisons.BreakEvenMonths {
		if b.Cheaper == "on_prem" && b.Than == "cloud" {
			found = true
			if !near(b.Month, want, 1e-9) {
				t.Errorf("break-even month %.4f, want %.4f", b.Month, want)
			}
			// The cumulative curves agree: on-premises is dearer in month 44
			// and cheaper in month 45.
			if !(op.CumulativeByMonth[43] > cl.CumulativeByMonth[43] && op.CumulativeByMonth[44] < cl.CumulativeByMonth[44]) {
				t.Errorf("cumulative curves do not cross between months 44 and 45")
			}
		}
	}
	if !found {
		t.Errorf("no on_prem/cloud break-even in %+v", r.Comparisons.BreakEvenMonths)
	}
}

func hasPair(be []BreakEven, a, b string) bool {
	for _, x := range be {
		if x.Cheaper == a && x.Than == b {
			return true
		}
	}
	return false
}

// A managed inference month, by hand: Llama 3.1 8B on Together at
// 0.18 $/M tokens in and out; 2 requests/s on average × 730 h × 3600 s =
// 5,256,000 requests × (1,000 + 200) tokens = 6.3072e9 tokens → 1,135.296 $;
// staff 0.05 FTE × 137,900 ÷ 12 = 574.583 $: 1,709.879 $ a month.
func TestManagedInferenceMonthByHand(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(8), MeanRPS: scenario.Known(2), TokensIn: scenario.Known(1000),
			TokensOut: scenario.Known(200), LatencyTargetMS: scenario.Known(5000)}}
	s.Options.Managed.Offer = "together-8b"
	m := eval(t, s).Direction(scenario.Managed)
	if !near(m.OtherCostPerRun, 1135.296, 1e-9) || !near(m.CostPerRun, 1135.296+0.05*137900/12, 1e-9) {
		t.Errorf("tokens %.3f, month %.3f; want 1,135.296 and 1,709.879", m.OtherCostPerRun, m.CostPerRun)
	}
}

// Committed capacity is paid for every hour: 8 GPUs × 730 h × 4.362 $
// (p4de 1-year, 3.4309 × (1 − 36.6 %)) = 25,474.93 $ a month whatever the
// use, and nothing per run.
func TestCommittedPricingIsFixed(t *testing.T) {
	s := base()
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p4de-a100", Pricing: "commit_1y", GPUs: 8}
	c := eval(t, s).Direction(scenario.Cloud)
	rate := 3.4309 * (1 - 0.366)
	if c.VariablePricePerGPUHour != 0 || !near(c.MonthlyFixedCost, 8*730*rate+0.25*137900/12, 1e-3) {
		t.Errorf("variable %g, fixed %.2f; want 0 and %.2f", c.VariablePricePerGPUHour, c.MonthlyFixedCost, 8*730*rate+0.25*137900/12)
	}
}

// A hybrid run with transfers, by hand: the 200 GB snapshot sits in GCS
// (0.020 $/GiB-month = 0.0186265 $/GB-month) while the run lasts and 30 GB
// of outputs come back at 0.11 $/GiB = 0.1024455 $/GB:
// other cost per run = 200 × 0.0186265 × (time to result ÷ 730) + 30 × 0.1024455.
func TestHybridTransfersByHand(t *testing.T) {
	s := base()
	s.Data.Movement, s.Data.SnapshotGB, s.Data.OutputGB = scenario.MoveSnapshot, scenario.Known(200), scenario.Known(30)
	s.Options.Cloud = scenario.CloudOptions{Offer: "gcp-a3-h100", GPUs: 8}
	h := eval(t, s).Direction(scenario.Hybrid)
	storage, egress := 0.020/1.073741824, 0.11/1.073741824
	want := 200*storage*(h.TimeToResultHours/730) + 30*egress
	if !near(h.OtherCostPerRun, want, 1e-4) {
		t.Errorf("transfers %.4f $, want %.4f", h.OtherCostPerRun, want)
	}
	// Staging the snapshot at 1 GB/s: 200 s.
	if h.DataPath == nil || !near(h.DataPath.StagingHours, 200.0/3600, 1e-9) {
		t.Errorf("staging %+v, want 200 s", h.DataPath)
	}
	if !h.Feasible {
		t.Errorf("hybrid infeasible: %v", h.Reasons)
	}
}

// A scenario's own price override wins over the catalog, dates the report
// and is checked like a catalog import: a bad row names its index.
func TestScenarioPriceOverrides(t *testing.T) {
	s := base()
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 8}
	before := eval(t, s).Direction(scenario.Cloud)
	s.PriceOverrides = []scenario.PriceOverride{
		{Kind: "cloud", ID: "aws-p5-h100", Field: "on_demand", Value: "10", AsOf: "2021-01-01", Source: "a quote"},
		{Kind: "site", ID: "site", Field: "staff_cost_per_fte_year", Value: "150000", AsOf: "2026-01-01", Source: "HR"},
	}
	r := eval(t, s)
	after := r.Direction(scenario.Cloud)
	if after.VariablePricePerGPUHour != 10 || !near(after.VariableCostPerRun, before.GPUHoursPerRun*10, 1e-9) {
		t.Errorf("price %g, variable cost %g; want 10 and %g", after.VariablePricePerGPUHour, after.VariableCostPerRun, before.GPUHoursPerRun*10)
	}
	// 0.25 FTE × 150,000 ÷ 12 = 3,125 a month of staff.
	if !near(after.MonthlyFixedCost, 3125, 1e-9) || r.CatalogAsOf != "2021-01-01" {
		t.Errorf("fixed %g, as of %s; want 3,125 and 2021-01-01", after.MonthlyFixedCost, r.CatalogAsOf)
	}
	s.PriceOverrides = append(s.PriceOverrides, scenario.PriceOverride{Kind: "cloud", ID: "aws-p5-h100", Field: "on_demnd", Value: "1", AsOf: "2021-01-01", Source: "x"})
	_, err := Evaluate(s, cat(t))
	if err == nil || !strings.Contains(err.Error(), `price_overrides[2]: cloud aws-p5-h100: field "on_demnd"`) {
		t.Errorf("error %v, want one naming price_overrides[2]", err)
	}
}

// The bridge rents the runs of the lead time by the hour: with the cloud
// direction on a 1-year commitment (aws-p4de-a100, price per GPU-hour used
// 0, the commitment a fixed cost) the bridge still pays for them, at the
// offer's on-demand rate of 3.4309 $ per GPU-hour — a commitment is not
// sold for the 3.68 months of a lead time. It cost 0 before (lead months ×
// runs × the cloud's variable cost per run, 0 under a commitment).
func TestBridgeRentsAtOnDemandUnderCommitment(t *testing.T) {
	s := onPremBase()
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p4de-a100", Pricing: "commit_1y", GPUs: 8}
	r := eval(t, s)
	cl, op := r.Direction(scenario.Cloud), r.Direction(scenario.OnPrem)
	if cl.VariablePricePerGPUHour != 0 || !cl.Feasible {
		t.Fatalf("cloud: variable price %g, feasible %v; want a feasible commitment", cl.VariablePricePerGPUHour, cl.Feasible)
	}
	want := 112 / (365.25 / 12) * cl.GPUHoursPerRun * 3.4309
	if !near(op.OneOffCost, want, 1e-9) || want <= 0 {
		t.Errorf("bridge = %.4f $, want %.4f $ (%.4g GPU-hours × 3.4309 $ × 3.68 months)", op.OneOffCost, want, cl.GPUHoursPerRun)
	}
}

// Each direction is dated by the prices it used, not the catalog's
// oldest: with the staff cost restated as of 2026-09-01, the cloud (AWS
// p5, priced 2026-01-21; AWS storage and egress, 2026-01-01) is dated
// 2026-01-01 and notes nothing stale, while on-premises, which bought the
// DGX H100 class node priced in 2023, is dated 2023-05-01, and one note
// names the catalog figures more than twelve months older than the
// catalog's newest price (2026-12-01, a dedicated deployment price read
// that day) that carry at least 1 % of its cost, the largest share first:
// the node's price, the site's maintenance rate and depreciation life
// (2024-03-01), its colocation price (CBRE H2 2024, 2025-02-26) … — not
// the electricity price and PUE, which the scenario gives, nor the staff
// cost, restated.
func TestPricesDatedByDirection(t *testing.T) {
	s := onPremBase()
	s.PriceOverrides = []scenario.PriceOverride{{Kind: "site", ID: "site", Field: "staff_cost_per_fte_year", Value: "129000", AsOf: "2026-09-01", Source: "HR"}}
	r := eval(t, s)
	stale := func(d *DirectionResult) []string {
		var out []string
		for _, n := range d.Notes {
			if n.Code == NoteStalePrice {
				out = append(out, n.Text)
			}
		}
		return out
	}
	cl, op := r.Direction(scenario.Cloud), r.Direction(scenario.OnPrem)
	if cl.PricesAsOf != "2026-01-01" || len(stale(cl)) != 0 {
		t.Errorf("cloud: prices as of %s, stale %q; want 2026-01-01 and none", cl.PricesAsOf, stale(cl))
	}
	notes := stale(op)
	if op.PricesAsOf != "2023-05-01" || len(notes) != 1 {
		t.Fatalf("on-premises: prices as of %s, stale %q; want 2023-05-01 and one note", op.PricesAsOf, notes)
	}
	const head = "catalog figures more than 12 months older than its newest price (2026-12-01) that this cost leans on: price of one node (node/dgx-h100/price) as of 2023-05-01 (60 % of the cost); maintenance a year"
	if !strings.HasPrefix(notes[0], head) || !strings.Contains(notes[0], "colocation space (site/site/colo_per_kw_month) as of 2025-02-26") {
		t.Errorf("on-premises stale note %q, want it to begin %q and name the colocation price", notes[0], head)
	}
	for _, not := range []string{"staff_cost", "electricity_per_kwh", "site/site/pue"} {
		if strings.Contains(notes[0], not) {
			t.Errorf("the note names %s, which the scenario gives: %q", not, notes[0])
		}
	}
	if r.CatalogAsOf != "2023-05-01" {
		t.Errorf("report as of %s, want the oldest used by any direction, 2023-05-01", r.CatalogAsOf)
	}
}

// A stale figure that carries less than 1 % of a direction's cost is not
// named: the cloud's staff cost beside a large run's compute; beside a
// small run's, where it is nearly all the cost, it is.
func TestStalePriceNamesWhatMatters(t *testing.T) {
	staff := func(d *DirectionResult) (share float64, named bool) {
		for _, in := range d.CostInputs {
			if strings.Contains(in.Catalog, "staff_cost_per_fte_year") {
				share = d.costShare(in.Driver)
			}
		}
		for _, n := range d.Notes {
			named = named || n.Code == NoteStalePrice && strings.Contains(n.Text, "staff_cost")
		}
		return share, named
	}
	s := base()
	s.Workload.TokensPerRunB = scenario.Known(100000) // some 670,000 $ of compute a run
	x, named := staff(eval(t, s).Direction(scenario.Cloud))
	if !(x > 0 && x < staleMaterialShare) || named {
		t.Errorf("a staff cost of %.2g %% of the cost: named %v, want a share below 1 %% and not named", 100*x, named)
	}
	s.Workload.TokensPerRunB = scenario.Known(10) // a run of some 70 $: the staff is the cost
	if x, named := staff(eval(t, s).Direction(scenario.Cloud)); x < staleMaterialShare || !named {
		t.Errorf("a stale staff cost of %.0f %% of the cost: named %v, want it named", 100*x, named)
	}
}

// A scenario whose used figures are all within twelve months of the
// catalog's newest price (2026-12-01) gets no stale_price note: with the
// node's and the site's figures it uses (price, power and lead time;
// colocation, maintenance, staff cost, life, infrastructure share, cost
// of capital, idle draw) restated as of 2026-09-01, and its own
// electricity price and PUE,
// on-premises is dated 2026-09-01 and notes nothing stale, nor does any
// other direction.
func TestNoStalePriceWhenAllRecent(t *testing.T) {
	s := onPremBase()
	for _, o := range [][3]string{{"site", "staff_cost_per_fte_year", "129000"}, {"site", "colo_per_kw_month", "184.06"},
		{"site", "maintenance_per_year", "0.2"}, {"node", "price", "270000"}, {"site", "life_years", "5"},
		{"site", "infrastructure_share", "0.2"}, {"site", "cost_of_capital", "0.08"}, {"site", "idle_power_fraction", "0.3"},
		{"node", "power_kw_max", "10.2"}, {"node", "power_kw_typical", "8"}, {"node", "lead_time_weeks", "16"}} {
		id := "site"
		if o[0] == "node" {
			id = "dgx-h100"
		}
		s.PriceOverrides = append(s.PriceOverrides, scenario.PriceOverride{Kind: o[0], ID: id, Field: o[1], Value: o[2], AsOf: "2026-09-01", Source: "quote"})
	}
	r := eval(t, s)
	for _, d := range r.Directions {
		for _, n := range d.Notes {
			if n.Code == NoteStalePrice {
				t.Errorf("%s: %s", d.Direction, n.Text)
			}
		}
	}
	if op := r.Direction(scenario.OnPrem); op.PricesAsOf != "2026-09-01" || !op.Feasible {
		t.Errorf("on-premises: prices as of %q (feasible %v), want 2026-09-01", op.PricesAsOf, op.Feasible)
	}
	// Without the restatements the same scenario names the old prices.
	s.PriceOverrides = nil
	found := false
	for _, n := range eval(t, s).Direction(scenario.OnPrem).Notes {
		found = found || n.Code == NoteStalePrice
	}
	if !found {
		t.Errorf("the catalog's own prices raised no stale_price note")
	}
}
