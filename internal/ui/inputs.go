package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/scenario"
)

// inputsView is the Inputs tab: the scenario's inputs, grouped as in the
// scenario file, one "label: value" row each.
type inputsView struct {
	box     *fyne.Container
	content fyne.CanvasObject
}

func newInputsView() *inputsView {
	v := &inputsView{box: container.NewVBox()}
	v.content = container.NewVScroll(v.box)
	return v
}

// set shows the inputs of s. All groups share one form, so the values line
// up from top to bottom; each group's title sits in the label column.
func (v *inputsView) set(s *scenario.Scenario) {
	form := container.New(layout.NewFormLayout())
	for _, g := range inputGroups(s) {
		heading := widget.NewLabel(g.title)
		heading.TextStyle.Bold = true
		heading.SizeName = theme.SizeNameSubHeadingText
		form.Add(heading)
		form.Add(layout.NewSpacer())
		for _, r := range g.rows {
			label := widget.NewLabel(r.label)
			value := widget.NewLabel(r.value)
			value.Wrapping = fyne.TextWrapWord
			form.Add(label)
			form.Add(value)
		}
	}
	v.box.RemoveAll()
	v.box.Add(form)
}

// inputGroup is one titled group of inputs.
type inputGroup struct {
	title string
	rows  []inputRow
}

// inputRow is one input as "label: value".
type inputRow struct{ label, value string }

// rowsBuilder collects rows, leaving out inputs the scenario does not give.
type rowsBuilder []inputRow

func (b *rowsBuilder) text(label, value string) {
	if value != "" && value != noValue {
		*b = append(*b, inputRow{label, value})
	}
}

func (b *rowsBuilder) value(label string, v scenario.Value) {
	b.text(label, formatValue(v))
}

// inputGroups lists the inputs of s in five groups: Purpose, Workload, Data,
// Dimensions and Options. Estimates read "likely (low–high, estimate)".
func inputGroups(s *scenario.Scenario) []inputGroup {
	if s == nil {
		return nil
	}
	return []inputGroup{
		{"Purpose", purposeRows(s)},
		{"Workload", workloadRows(s)},
		{"Data", dataRows(s)},
		{"Dimensions", dimensionRows(s)},
		{"Options", optionRows(s)},
	}
}

func purposeRows(s *scenario.Scenario) []inputRow {
	p := s.Purpose
	var b rowsBuilder
	b.text("Decision", p.Decision)
	b.text("Success measure", p.SuccessMeasure)
	b.text("Evaluation baseline", p.Baseline)
	b.value("Acceptable runtime (h)", p.AcceptableRuntimeHours)
	b.text("Owner", p.Owner)
	b.text("Description", s.Description)
	b.text("Currency", s.Currency)
	return b
}

func workloadRows(s *scenario.Scenario) []inputRow {
	w := s.Workload
	var b rowsBuilder
	b.text("Shape", shapeTitle(w.Shape))
	b.text("Model", modelText(w.Model))
	b.text("Precision", w.Precision)
	b.text("Fine-tuning method", methodTitle(w.Method))
	b.value("Tokens per run (billions)", w.TokensPerRunB)
	b.value("Items per run (millions)", w.ItemsPerRunM)
	b.value("Runs per month", w.RunsPerMonth)
	if t := w.Traffic; t != nil {
		b.value("Peak requests/s", t.PeakRPS)
		b.value("Mean requests/s", t.MeanRPS)
		b.value("Tokens in per request", t.TokensIn)
		b.value("Tokens out per request", t.TokensOut)
		b.value("Latency target (ms)", t.LatencyTargetMS)
	}
	b.value("Deadline per run (h)", w.DeadlineHours)
	b.value("Model FLOPs utilisation", w.MFU)
	var trial []string
	for _, p := range w.Trial {
		trial = append(trial, fmt.Sprintf("%s → %s/s", plural(p.GPUs, "GPU"), formatNumber(p.Throughput)))
	}
	b.text("Trial measurements", strings.Join(trial, "; "))
	b.text("Trial GPU", w.TrialGPU)
	if w.Recompute {
		b.text("Activation recomputation", "full (8·P·D)")
	}
	b.text("Model-state sharding", w.Sharding)
	if w.SequenceLength > 0 {
		b.text("Sequence length (tokens)", formatNumber(float64(w.SequenceLength)))
	}
	if w.MicroBatch > 0 {
		b.text("Micro-batch per GPU", formatNumber(float64(w.MicroBatch)))
	}
	if w.GlobalBatchTokens > 0 {
		b.text("Global batch (tokens)", formatNumber(float64(w.GlobalBatchTokens)))
	}
	if w.GlobalBatchItems > 0 {
		b.text("Global batch (items)", formatNumber(float64(w.GlobalBatchItems)))
	}
	b.value("Epochs", w.Epochs)
	b.value("Serial fraction of a step", w.SerialFraction)
	b.value("Scaling efficiency threshold", w.EfficiencyThreshold)
	return b
}

// modelText describes the model: its preset, or its size and shape.
func modelText(m scenario.Model) string {
	var parts []string
	if m.Preset != "" {
		parts = append(parts, m.Preset)
	}
	if m.ParamsB > 0 {
		parts = append(parts, formatNumber(m.ParamsB)+" B parameters")
	}
	if m.ActiveParamsB > 0 {
		parts = append(parts, formatNumber(m.ActiveParamsB)+" B active")
	}
	if m.Layers > 0 {
		parts = append(parts, plural(m.Layers, "layer"))
	}
	if m.HiddenSize > 0 {
		parts = append(parts, "hidden size "+formatNumber(float64(m.HiddenSize)))
	}
	if m.KVHeads > 0 {
		parts = append(parts, plural(m.KVHeads, "KV head"))
	}
	if m.HeadDim > 0 {
		parts = append(parts, "head dim "+formatNumber(float64(m.HeadDim)))
	}
	if m.GFLOPsPerItem > 0 {
		parts = append(parts, formatNumber(m.GFLOPsPerItem)+" GFLOPs per item")
	}
	if m.GradientGB > 0 {
		parts = append(parts, formatNumber(m.GradientGB)+" GB of gradients per step")
	}
	return strings.Join(parts, ", ")
}

// methodTitle names a fine-tuning method.
func methodTitle(m string) string {
	switch m {
	case "":
		return ""
	case "lora":
		return "LoRA"
	case "qlora":
		return "QLoRA"
	}
	return humanize(m)
}

// movementText says what the data.movement rule allows.
var movementText = map[string]string{
	scenario.MoveAny:      "May be processed wherever residency allows",
	scenario.MoveSnapshot: "Only an approved, minimised snapshot may leave",
	scenario.MoveNone:     "Nothing leaves the controlled environment",
}

func dataRows(s *scenario.Scenario) []inputRow {
	d := s.Data
	var b rowsBuilder
	b.value("Volume (GB)", d.VolumeGB)
	b.value("File count", d.FileCount)
	b.text("Classification", humanize(d.Classification))
	b.text("Personal data", yesNo(d.PersonalData))
	b.text("Residency", d.Residency)
	if t, ok := movementText[d.Movement]; ok {
		b.text("Data movement", t)
	} else {
		b.text("Data movement", d.Movement)
	}
	b.value("Snapshot (GB)", d.SnapshotGB)
	var outputs []string
	for _, o := range d.ReturnOutputs {
		outputs = append(outputs, strings.ReplaceAll(o, "_", " "))
	}
	b.text("Outputs that may return", strings.Join(outputs, ", "))
	b.value("Output per run (GB)", d.OutputGB)
	b.value("Storage throughput (GB/s)", d.StorageGBps)
	b.text("Controlled environment", d.ControlledEnv)
	b.text("Retention and deletion owner", d.RetentionOwner)
	b.text("Managed provider may process", yesNo(d.ProviderAllowed))
	for _, st := range d.Lifecycle {
		b.text("Lifecycle: "+st.Stage, fmt.Sprintf("%s (%s)", orDash(st.Owner == "", st.Owner), strings.ReplaceAll(st.Status, "_", " ")))
	}
	return b
}

func dimensionRows(s *scenario.Scenario) []inputRow {
	d := s.Dimensions
	var b rowsBuilder
	dim := func(name string, weight float64, facts ...string) {
		var given []string
		for _, f := range facts {
			if f != "" {
				given = append(given, f)
			}
		}
		value := "weight " + formatNumber(weight)
		if len(given) > 0 {
			value += "; " + strings.Join(given, "; ")
		}
		b.text(name, value)
	}
	dim("Sovereignty", d.Sovereignty.Weight, d.Sovereignty.Notes)
	dim("Workload shape", d.WorkloadShape.Weight, prefixed("demand pattern ", d.WorkloadShape.Pattern))
	dim("Operations", d.Operations.Weight,
		prefixed("staff FTE ", orEmpty(formatValue(d.Operations.StaffFTE))),
		prefixed("skills: ", strings.Join(d.Operations.Skills, ", ")))
	dim("Economics", d.Economics.Weight,
		prefixed("budget cap ", orEmpty(formatMoneyValue(d.Economics.BudgetCap, s.Currency))),
		prefixed("horizon ", pluralOrEmpty(d.Economics.HorizonMonths, "month")))
	exit := "no exit requirement"
	if d.Optionality.ExitRequired {
		exit = "must be able to exit"
	}
	dim("Optionality", d.Optionality.Weight, exit)
	return b
}

func optionRows(s *scenario.Scenario) []inputRow {
	o := s.Options
	cur := s.Currency
	var b rowsBuilder
	direction := func(d string, disabled bool, facts ...string) {
		var given []string
		for _, f := range facts {
			if f != "" {
				given = append(given, f)
			}
		}
		value := "Catalog defaults"
		switch {
		case disabled:
			value = "Not considered (disabled)"
		case len(given) > 0:
			value = strings.Join(given, "; ")
		}
		b.text(directionTitle(d), value)
	}
	direction(scenario.Managed, o.Managed.Disabled,
		prefixed("offer ", o.Managed.Offer),
		prefixed("input price per million tokens ", orEmpty(formatMoneyValue(o.Managed.PriceInPerM, cur))),
		prefixed("output price per million tokens ", orEmpty(formatMoneyValue(o.Managed.PriceOutPerM, cur))))
	direction(scenario.Cloud, o.Cloud.Disabled,
		prefixed("offer ", o.Cloud.Offer),
		prefixed("pricing ", strings.ReplaceAll(o.Cloud.Pricing, "_", " ")),
		pluralOrEmpty(o.Cloud.GPUs, "GPU"),
		prefixed("price per GPU-hour ", orEmpty(formatMoneyValue(o.Cloud.PricePerGPUHr, cur))),
		prefixed("storage per GB-month ", orEmpty(formatMoneyValue(o.Cloud.StorageGBMonth, cur))),
		prefixed("egress per GB ", orEmpty(formatMoneyValue(o.Cloud.EgressPerGB, cur))),
		prefixed("spot interruptions per month ", orEmpty(formatValue(o.Cloud.SpotInterruptions))))
	existing := ""
	if o.OnPrem.Existing {
		existing = "hardware already owned"
	}
	lifeYears := ""
	if o.OnPrem.LifeYears > 0 {
		lifeYears = "life " + formatNumber(o.OnPrem.LifeYears) + " years"
	}
	direction(scenario.OnPrem, o.OnPrem.Disabled,
		prefixed("node ", o.OnPrem.Node),
		pluralOrEmpty(o.OnPrem.Nodes, "node"),
		existing,
		prefixed("electricity per kWh ", orEmpty(formatMoneyValue(o.OnPrem.ElectricityKWh, cur))),
		prefixed("PUE ", orEmpty(formatValue(o.OnPrem.PUE))),
		lifeYears,
		prefixed("staff FTE ", orEmpty(formatValue(o.OnPrem.StaffFTE))),
		prefixed("financing ", o.OnPrem.Financing),
		prefixed("lease per node-month ", orEmpty(formatMoneyValue(o.OnPrem.LeasePerNodeMonth, cur))),
		prefixed("node price ", orEmpty(formatMoneyValue(o.OnPrem.NodePrice, cur))),
		prefixed("expected utilisation ", orEmpty(formatValue(o.OnPrem.ExpectedUtilisation))))
	direction(scenario.HPC, o.HPC.Disabled,
		prefixed("partition ", o.HPC.Partition),
		pluralOrEmpty(o.HPC.GPUs, "GPU"),
		prefixed("queue wait (h) ", orEmpty(formatValue(o.HPC.QueueWaitHours))),
		prefixed("granted GPU-hours per month ", orEmpty(formatValue(o.HPC.GrantedGPUHours))),
		prefixed("price per GPU-hour ", orEmpty(formatMoneyValue(o.HPC.PricePerGPUHr, cur))))
	direction(scenario.Hybrid, o.Hybrid.Disabled,
		prefixed("bursts to ", directionOrEmpty(o.Hybrid.BurstTo)),
		prefixed("extra staff FTE ", orEmpty(formatValue(o.Hybrid.ExtraFTE))))
	for _, p := range s.PriceOverrides {
		b.text("Price override", fmt.Sprintf("%s %s: %s = %s (as of %s; %s)", p.Kind, p.ID, p.Field, p.Value, p.AsOf, p.Source))
	}
	if s.Distribution != "" {
		b.text("Distribution of estimates", s.Distribution)
	}
	return b
}

// prefixed returns prefix+text, or "" when text is empty.
func prefixed(prefix, text string) string {
	if text == "" {
		return ""
	}
	return prefix + text
}

// orEmpty turns the "no value" dash into "", so prefixed drops the fact.
func orEmpty(text string) string {
	if text == noValue {
		return ""
	}
	return text
}

// pluralOrEmpty is plural for a positive count and "" otherwise.
func pluralOrEmpty(n int, noun string) string {
	if n <= 0 {
		return ""
	}
	return plural(n, noun)
}

// directionOrEmpty names a direction, or "" when none is given.
func directionOrEmpty(d string) string {
	if d == "" {
		return ""
	}
	return directionTitle(d)
}
