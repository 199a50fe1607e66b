package export

import (
	"strings"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Who settled an option.
const (
	byScenario = "set by the scenario"
	byModel    = "chosen by the model"
)

// Columns of the Options sheet.
const (
	colOptName = 1 + iota
	colOptValue
	colOptBy
	colOptField
	colOptHow
)

// option is one row of the Options sheet: what the direction uses, who
// settled it, the scenario field that sets it and how the model chose it.
type option struct {
	label string
	text  string   // the value as text, or
	num   *float64 // the value as a number, with
	fmt   string   // its number format
	set   bool     // the scenario set it (else the model chose it)
	field string   // the scenario field that sets it
	how   string
}

func numOpt(x float64) *float64 { return &x }

// writeOptions writes, per direction, the options it was evaluated with:
// the offer, GPU, GPU count, pricing, financing and the like, each marked
// as set by the scenario or chosen by the model (a catalog default or the
// model's search), then any other option the scenario sets.
//
// The model's rules quoted in "how" are those of internal/model
// (managed.go, cloud.go: cloudOffer, onprem.go, hpc.go: hpcPartition,
// hybrid.go; place.go: place); keep them in step.
func writeOptions(b *book, s *scenario.Scenario, r *model.Report) {
	const sh = sheetOptions
	b.widths(sh, 34, 34, 20, 36, 70)
	b.spanText(sh, 1, 1, 5, "Options of each hosting direction: what the scenario set and what the model chose (engine values, not formulas)", textStyle{bold: true, size: sizeHead})
	b.spanText(sh, 2, 1, 5, "Set an option in the scenario (the field in column D) to overrule the model's choice; anything left out defaults from the catalog.", textStyle{})
	b.freeze(sh, 2)
	row := 4
	for i := range r.Directions {
		d := &r.Directions[i]
		title := d.Title
		if !d.Feasible {
			title += " (not feasible)"
		}
		b.spanText(sh, row, 1, 5, title, textStyle{bold: true})
		row++
		b.headerRow(sh, row, "Option", "Used in this report", "Set by", "Scenario field", "How the model chose, or the scenario's range")
		row++
		for _, o := range directionOptions(s, d) {
			b.spanText(sh, row, colOptName, colOptName, o.label, textStyle{})
			if o.num != nil {
				name := o.field
				if name == "" {
					name = "options of " + d.Direction + ": " + o.label
				}
				b.numLeft(sh, colOptValue, row, *o.num, o.fmt, name)
			} else {
				b.spanText(sh, row, colOptValue, colOptValue, o.text, textStyle{})
			}
			by := byModel
			if o.set {
				by = byScenario
			}
			b.spanText(sh, row, colOptBy, colOptBy, by, textStyle{bold: o.set})
			b.spanText(sh, row, colOptField, colOptField, o.field, textStyle{})
			b.spanText(sh, row, colOptHow, colOptHow, o.how, textStyle{})
			row++
		}
		row++
	}
}

// directionOptions lists the options of direction d of scenario s.
func directionOptions(s *scenario.Scenario, d *model.DirectionResult) []option {
	o := s.Options
	var out []option
	add := func(op option) { out = append(out, op) }

	field := "options." + d.Direction
	disabled := false
	switch d.Direction {
	case scenario.Managed:
		disabled = o.Managed.Disabled
	case scenario.Cloud:
		disabled = o.Cloud.Disabled
	case scenario.OnPrem:
		disabled = o.OnPrem.Disabled
	case scenario.HPC:
		disabled = o.HPC.Disabled
	case scenario.Hybrid:
		disabled = o.Hybrid.Disabled
	}
	if disabled {
		add(option{label: "Compared", text: "No: excluded", set: true, field: field + ".disabled",
			how: "the scenario excludes this direction; its figures are shown for reference"})
	} else {
		add(option{label: "Compared", text: "Yes", field: field + ".disabled",
			how: "every direction is compared unless the scenario excludes it"})
	}

	// covered are the option fields the rows below already show.
	covered := map[string]bool{field + ".disabled": true}
	cover := func(fs ...string) {
		for _, f := range fs {
			covered[f] = true
		}
	}
	offerText := "none"
	noOffer := d.Offer == ""
	if d.Offer != "" {
		offerText = d.Offer
		if d.OfferName != "" && d.OfferName != d.Offer {
			offerText += ": " + d.OfferName
		}
	}
	// offerHow is how the model picks an offer, or why there is none.
	offerHow := func(set, rule string) string {
		if noOffer && set == "" {
			return "none picked: the direction was ruled out before an offer was chosen (see Summary)"
		}
		return orGiven(set, rule)
	}
	gpuRows := func(setOffer bool, offerField, countField string, count int) {
		if d.GPU == "" {
			return
		}
		how := "the GPU of the chosen offer"
		add(option{label: "GPU", text: d.GPU, set: setOffer, field: offerField, how: how})
		how = "the smallest count that holds the run in GPU memory (at least one node), doubled until a run meets the deadline"
		if d.Serving != nil {
			how = "replicas × GPUs per replica needed at the peak traffic within the latency target"
		}
		if count > 0 {
			how = "as given"
		}
		add(option{label: "GPU count", num: numOpt(float64(d.GPUs)), fmt: fmtGeneral, set: count > 0, field: countField, how: how})
	}
	price := func(v scenario.Value, f, catalogHow string) {
		if d.GPU == "" {
			return
		}
		op := option{label: "Price per GPU-hour", num: numOpt(d.PricePerGPUHour), fmt: fmtPrice, set: v.IsSet(), field: f, how: catalogHow}
		if v.IsSet() {
			op.how = valueHow(v)
		}
		add(op)
		cover(f)
	}
	staff := func(v scenario.Value, f, modelHow string) {
		op := option{label: "Operations staff (FTE)", num: numOpt(d.StaffFTE), fmt: fmtRatio, how: modelHow}
		if f != "" {
			op.field = f
			if v.IsSet() {
				op.set = true
				op.how = valueHow(v)
			}
			cover(f)
		}
		add(op)
	}
	cloudRows := func() {
		c := o.Cloud
		mode := c.Pricing
		add(option{label: "Cloud offer", text: offerText, set: c.Offer != "", field: "options.cloud.offer",
			how: offerHow(c.Offer, "the offer with the lowest price per unit of compute (per replica plan, for serving) at the pricing mode, within the data residency")})
		gpuRows(c.Offer != "", "options.cloud.offer", "options.cloud.gpus", c.GPUs)
		if mode == "" {
			mode = "on_demand"
		}
		add(option{label: "Pricing", text: present.ChoiceLabel("options.cloud.pricing", mode), set: c.Pricing != "", field: "options.cloud.pricing",
			how: orGiven(c.Pricing, "the default: on-demand rates")})
		price(c.PricePerGPUHr, "options.cloud.price_per_gpu_hour", "the offer's catalog rate at this pricing mode")
		cover("options.cloud.offer", "options.cloud.gpus", "options.cloud.pricing")
	}
	hpcRows := func() {
		h := o.HPC
		add(option{label: "HPC partition", text: offerText, set: h.Partition != "", field: "options.hpc.partition",
			how: offerHow(h.Partition, "the cheapest partition per unit of compute within the data residency and the scenario's currency whose GPUs hold the model")})
		gpuRows(h.Partition != "", "options.hpc.partition", "options.hpc.gpus", h.GPUs)
		price(h.PricePerGPUHr, "options.hpc.price_per_gpu_hour", "the partition's catalog rate (0 for granted hours)")
		q := option{label: "Queue wait per job (hours)", text: "catalog estimate (see Notes)", field: "options.hpc.queue_wait_hours",
			how: "the likely value of the partition's catalog range"}
		if v := h.QueueWaitHours; v.IsSet() {
			q = option{label: q.label, num: numOpt(v.Likely), fmt: fmtHours, set: true, field: q.field, how: valueHow(v)}
		}
		add(q)
		cover("options.hpc.partition", "options.hpc.gpus", "options.hpc.queue_wait_hours")
	}

	switch d.Direction {
	case scenario.Managed:
		m := o.Managed
		add(option{label: "Managed offer", text: offerText, set: m.Offer != "", field: "options.managed.offer",
			how: offerHow(m.Offer, "the cheapest offer of the right kind (inference or fine-tuning) whose size class holds the model, within the data residency")})
		for _, p := range []struct {
			label string
			v     scenario.Value
			f     string
		}{
			{"Price per million input tokens", m.PriceInPerM, "options.managed.price_in_per_m"},
			{"Price per million output tokens", m.PriceOutPerM, "options.managed.price_out_per_m"},
		} {
			op := option{label: p.label, text: "the offer's catalog price", field: p.f, how: "from the catalog entry of the offer"}
			if p.v.IsSet() {
				op = option{label: p.label, num: numOpt(p.v.Likely), fmt: fmtPrice, set: true, field: p.f, how: valueHow(p.v)}
			}
			add(op)
		}
		cover("options.managed.offer", "options.managed.price_in_per_m", "options.managed.price_out_per_m")
		staff(scenario.Value{}, "", "the model's estimate of the operating effort of a managed service")
	case scenario.Cloud:
		cloudRows()
		staff(scenario.Value{}, "", "the model's estimate of the operating effort of cloud instances")
	case scenario.OnPrem:
		p := o.OnPrem
		add(option{label: "Server node", text: offerText, set: p.Node != "", field: "options.on_prem.node",
			how: offerHow(p.Node, model.NodeChoice)})
		count := 0
		countField := "options.on_prem.nodes"
		if p.Nodes > 0 {
			count = p.Nodes
		}
		gpuRows(p.Node != "", "options.on_prem.node", countField, count)
		if p.Nodes > 0 {
			add(option{label: "Nodes", num: numOpt(float64(p.Nodes)), fmt: fmtGeneral, set: true, field: countField, how: "as given: the GPU count is nodes × GPUs per node"})
		}
		fin := option{label: "Financing", text: present.ChoiceLabel("options.on_prem.financing", "depreciation"), field: "options.on_prem.financing",
			how: "the default: straight-line depreciation over the hardware life, charged monthly"}
		switch {
		case p.Existing:
			fin = option{label: "Financing", text: "hardware already owned", set: true, field: "options.on_prem.existing",
				how: "no depreciation or purchase charged; running costs only"}
		case p.Financing != "":
			fin.text, fin.set, fin.how = present.ChoiceLabel("options.on_prem.financing", p.Financing), true, "as given"
		}
		add(fin)
		if oc := d.OwnedCost; oc != nil {
			u := option{label: "Expected utilisation", num: numOpt(oc.Utilisation), fmt: fmtPercent,
				field: "options.on_prem.expected_utilisation", how: "GPU-hours the runs use ÷ GPU-hours the owned GPUs offer"}
			if v := p.ExpectedUtilisation; v.IsSet() {
				u.set, u.how = true, valueHow(v)
			}
			add(u)
			add(option{label: "Effective price per GPU-hour", num: numOpt(oc.EffectivePricePerGPUHour), fmt: fmtPrice,
				how: "owned cost per month ÷ GPU-hours used at that utilisation, plus the power above idle"})
		}
		cover("options.on_prem.node", "options.on_prem.nodes", "options.on_prem.financing", "options.on_prem.existing", "options.on_prem.expected_utilisation")
		staff(p.StaffFTE, "options.on_prem.staff_fte", "the model's estimate for on-premises hardware, facilities and cluster")
	case scenario.HPC:
		hpcRows()
		staff(scenario.Value{}, "", "the model's estimate of the effort of job scripts and scheduler use")
	case scenario.Hybrid:
		h := o.Hybrid
		target := h.BurstTo
		if target == "" {
			target = scenario.Cloud
		}
		add(option{label: "Burst to", text: present.DirectionTitle(target), set: h.BurstTo != "", field: "options.hybrid.burst_to",
			how: orGiven(h.BurstTo, "the default: cloud IaaS")})
		if target == scenario.HPC {
			hpcRows()
		} else {
			cloudRows()
		}
		cover("options.hybrid.burst_to")
		// The total is the model's; an extra effort the scenario sets is
		// listed below it.
		staff(scenario.Value{}, "", "the burst target's operations plus the extra effort of transfers and two environments (the model's estimate unless options.hybrid.extra_staff_fte is set)")
	}

	// Anything else the scenario sets for this direction.
	for _, in := range present.Inputs(s) {
		if !strings.HasPrefix(in.Path, field+".") || covered[in.Path] {
			continue
		}
		if op, ok := setOption(in, s.Currency); ok {
			add(op)
		}
	}
	return out
}

// setOption is the row of an option field the scenario sets, labelled
// without its direction (the table is under the direction's title) and
// with units in currency; false when the field is left out.
func setOption(in present.Input, currency string) (option, bool) {
	label := in.Field.Short()
	if in.Field.Unit != "" {
		label += " (" + in.Field.UnitIn(currency) + ")"
	}
	op := option{label: label, set: true, field: in.Path, how: "as given"}
	if !in.Given() {
		return op, false
	}
	switch v := in.Value.(type) {
	case scenario.Value:
		op.num, op.fmt, op.how = numOpt(v.Likely), fmtGeneral, valueHow(v)
	case string:
		op.text = in.Text()
	case bool:
		if !v {
			return op, false
		}
		op.text = "Yes"
	case int:
		op.num, op.fmt = numOpt(float64(v)), fmtGeneral
	case float64:
		op.num, op.fmt = numOpt(v), fmtGeneral
	default:
		return op, false
	}
	return op, true
}

// valueHow says how a value the scenario sets is used.
func valueHow(v scenario.Value) string {
	if v.IsEstimate() {
		return "as given: estimate " + present.Range(v) + ", the likely value used"
	}
	return "as given"
}

// orGiven is "as given" when the scenario sets the option, else the model's rule.
func orGiven(set, rule string) string {
	if set != "" {
		return "as given"
	}
	return rule
}
