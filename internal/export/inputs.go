package export

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Columns of the Inputs sheet.
const (
	colInLabel = 1 + iota
	colInValue
	colInUnit
	colInBasis
	colInField
	colInName
)

// Rows of the named cells the cost formulas use.
const (
	rowRunsPerMonth  = 3
	rowHorizonMonths = 4
)

// inputLabel is the human label and unit of one scenario field. In unit,
// "¤" stands for the scenario currency.
type inputLabel struct{ label, unit string }

// inputLabels names every leaf field of scenario.Scenario by its JSON path
// ("[]" for any list index). TestInputLabelsCoverScenario fails when a field
// is added to the scenario without a label here.
var inputLabels = map[string]inputLabel{
	"schema_version": {"Schema version", ""},
	"id":             {"Scenario id", ""},
	"name":           {"Scenario name", ""},
	"description":    {"Description", ""},
	"currency":       {"Currency", ""},
	"seed":           {"Random seed", ""},

	"purpose.decision":                 {"Decision to make", ""},
	"purpose.success_measure":          {"Success measure", ""},
	"purpose.baseline":                 {"Baseline", ""},
	"purpose.acceptable_runtime_hours": {"Acceptable runtime", "hours"},
	"purpose.owner":                    {"Owner", ""},

	"workload.shape":                     {"Workload shape", ""},
	"workload.model.preset":              {"Model preset", ""},
	"workload.model.params_b":            {"Parameters", "billions"},
	"workload.model.active_params_b":     {"Active parameters", "billions"},
	"workload.model.layers":              {"Layers", ""},
	"workload.model.hidden_size":         {"Hidden size", ""},
	"workload.model.kv_heads":            {"KV heads", ""},
	"workload.model.head_dim":            {"Head dimension", ""},
	"workload.model.gflops_per_item":     {"Compute per item", "GFLOPs"},
	"workload.model.gradient_gb":         {"Gradient exchanged per step", "GB"},
	"workload.precision":                 {"Precision", ""},
	"workload.method":                    {"Fine-tuning method", ""},
	"workload.tokens_per_run_b":          {"Tokens per run", "billions"},
	"workload.items_per_run_m":           {"Items per run", "millions"},
	"workload.runs_per_month":            {"Runs per month", "runs/month"},
	"workload.traffic.peak_rps":          {"Peak request rate", "requests/s"},
	"workload.traffic.mean_rps":          {"Mean request rate", "requests/s"},
	"workload.traffic.tokens_in":         {"Tokens in per request", "tokens"},
	"workload.traffic.tokens_out":        {"Tokens out per request", "tokens"},
	"workload.traffic.latency_target_ms": {"Latency target", "ms"},
	"workload.deadline_hours":            {"Deadline per run", "hours"},
	"workload.mfu":                       {"Model FLOPs utilisation", "fraction"},
	"workload.trial":                     {"Trial measurements", ""},
	"workload.trial[].gpus":              {"Trial GPUs", "GPUs"},
	"workload.trial[].throughput":        {"Trial throughput", "items or tokens/s"},
	"workload.trial_gpu":                 {"Trial GPU", "catalog id"},
	"workload.recompute":                 {"Full activation recomputation", ""},
	"workload.sharding":                  {"Model-state sharding", ""},
	"workload.sequence_length":           {"Sequence length", "tokens"},
	"workload.micro_batch":               {"Micro-batch per GPU", "sequences"},
	"workload.global_batch_tokens":       {"Global batch", "tokens per step"},
	"workload.global_batch_items":        {"Global batch", "items per step"},
	"workload.epochs":                    {"Epochs", "passes over the data"},
	"workload.serial_fraction":           {"Serial fraction of a step", "fraction"},
	"workload.efficiency_threshold":      {"Scaling efficiency threshold", "fraction"},

	"data.volume_gb":              {"Data volume", "GB"},
	"data.file_count":             {"File count", "files"},
	"data.classification":         {"Classification", ""},
	"data.personal_data":          {"Personal data", ""},
	"data.residency":              {"Residency", ""},
	"data.movement":               {"Data movement", ""},
	"data.snapshot_gb":            {"Approved snapshot size", "GB"},
	"data.return_outputs":         {"Outputs returned", ""},
	"data.output_gb":              {"Output per run", "GB"},
	"data.retention_owner":        {"Retention owner", ""},
	"data.storage_gbps":           {"Storage throughput", "GB/s"},
	"data.controlled_environment": {"Controlled environment", ""},
	"data.lifecycle":              {"Lifecycle", ""},
	"data.lifecycle[].stage":      {"Lifecycle stage", ""},
	"data.lifecycle[].owner":      {"Lifecycle stage owner", ""},
	"data.lifecycle[].status":     {"Lifecycle stage status", ""},
	"data.provider_may_process":   {"Provider may process the data", ""},

	"dimensions.sovereignty.weight":        {"Weight: sovereignty", ""},
	"dimensions.sovereignty.notes":         {"Sovereignty notes", ""},
	"dimensions.workload_shape.weight":     {"Weight: workload shape", ""},
	"dimensions.workload_shape.pattern":    {"Demand pattern", ""},
	"dimensions.operations.weight":         {"Weight: operations", ""},
	"dimensions.operations.staff_fte":      {"Operations staff", "FTE"},
	"dimensions.operations.skills":         {"Team skills", ""},
	"dimensions.economics.weight":          {"Weight: economics", ""},
	"dimensions.economics.budget_cap":      {"Budget cap over the horizon", "¤"},
	"dimensions.economics.horizon_months":  {"Horizon", "months"},
	"dimensions.optionality.weight":        {"Weight: optionality", ""},
	"dimensions.optionality.exit_required": {"Exit required", ""},

	"options.managed.disabled":        {"Managed: excluded", ""},
	"options.managed.offer":           {"Managed: offer", ""},
	"options.managed.price_in_per_m":  {"Managed: price per million input tokens", "¤/M tokens"},
	"options.managed.price_out_per_m": {"Managed: price per million output tokens", "¤/M tokens"},

	"options.cloud.disabled":                     {"Cloud: excluded", ""},
	"options.cloud.offer":                        {"Cloud: offer", ""},
	"options.cloud.pricing":                      {"Cloud: pricing", ""},
	"options.cloud.gpus":                         {"Cloud: GPUs", "GPUs"},
	"options.cloud.price_per_gpu_hour":           {"Cloud: price per GPU-hour", "¤/GPU-hour"},
	"options.cloud.storage_per_gb_month":         {"Cloud: storage price", "¤/GB-month"},
	"options.cloud.egress_per_gb":                {"Cloud: egress price", "¤/GB"},
	"distribution":                               {"Distribution of estimates", ""},
	"price_overrides":                            {"Price overrides for this scenario", ""},
	"price_overrides[].kind":                     {"Override: catalog kind", ""},
	"price_overrides[].id":                       {"Override: entry", ""},
	"price_overrides[].field":                    {"Override: field", ""},
	"price_overrides[].value":                    {"Override: value", ""},
	"price_overrides[].as_of":                    {"Override: as of", "date"},
	"price_overrides[].source":                   {"Override: source", ""},
	"options.on_prem.financing":                  {"On-premises: financing", ""},
	"options.on_prem.lease_per_node_month":       {"On-premises: lease per node", "¤/month"},
	"options.on_prem.node_price":                 {"On-premises: node price", "¤"},
	"options.on_prem.expected_utilisation":       {"On-premises: expected utilisation", "fraction"},
	"options.cloud.spot_interruptions_per_month": {"Cloud: spot interruptions", "fraction per month"},

	"options.on_prem.disabled":            {"On-premises: excluded", ""},
	"options.on_prem.node":                {"On-premises: node", ""},
	"options.on_prem.nodes":               {"On-premises: nodes", "nodes"},
	"options.on_prem.existing":            {"On-premises: hardware already owned", ""},
	"options.on_prem.electricity_per_kwh": {"On-premises: electricity price", "¤/kWh"},
	"options.on_prem.pue":                 {"On-premises: PUE", ""},
	"options.on_prem.life_years":          {"On-premises: hardware life", "years"},
	"options.on_prem.staff_fte":           {"On-premises: staff", "FTE"},

	"options.hpc.disabled":           {"Shared HPC: excluded", ""},
	"options.hpc.partition":          {"Shared HPC: partition", ""},
	"options.hpc.gpus":               {"Shared HPC: GPUs", "GPUs"},
	"options.hpc.queue_wait_hours":   {"Shared HPC: queue wait", "hours"},
	"options.hpc.granted_gpu_hours":  {"Shared HPC: granted GPU-hours", "GPU-hours/month"},
	"options.hpc.price_per_gpu_hour": {"Shared HPC: price per GPU-hour", "¤/GPU-hour"},

	"options.hybrid.disabled":        {"Hybrid: excluded", ""},
	"options.hybrid.burst_to":        {"Hybrid: burst to", ""},
	"options.hybrid.extra_staff_fte": {"Hybrid: extra staff", "FTE"},
}

// inputSections titles the top-level groups of the scenario, in file order.
var inputSections = map[string]string{
	"purpose":    "Purpose",
	"workload":   "Workload",
	"data":       "Data",
	"dimensions": "Decision dimensions",
	"options":    "Direction options",
}

// leaf is one scenario input: a field that is not a struct.
type leaf struct {
	path   string // JSON path with list indices, e.g. "data.lifecycle[2].owner"
	schema string // JSON path with "[]" for indices, the key of inputLabels
	index  int    // 1-based list index of the innermost list, 0 outside lists
	v      reflect.Value
}

var valueType = reflect.TypeOf(scenario.Value{})

// leaves lists the inputs of v in field order, as encoding/json sees them.
// A nil pointer is walked as its zero value, so every field appears; an
// empty list of objects is one leaf (shown as not given).
func leaves(v reflect.Value, path, schema string, index int, out []leaf) []leaf {
	t := v.Type()
	switch {
	case t == valueType:
		return append(out, leaf{path, schema, index, v})
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			return leaves(reflect.Zero(t.Elem()), path, schema, index, out)
		}
		return leaves(v.Elem(), path, schema, index, out)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				out = leaves(v.Field(i), path, schema, index, out)
				continue
			}
			name := jsonName(f)
			if !f.IsExported() || name == "-" {
				continue
			}
			out = leaves(v.Field(i), join(path, name), join(schema, name), index, out)
		}
		return out
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		if v.Len() == 0 {
			return append(out, leaf{path, schema, index, v})
		}
		for i := range v.Len() {
			out = leaves(v.Index(i), fmt.Sprintf("%s[%d]", path, i), schema+"[]", i+1, out)
		}
		return out
	}
	return append(out, leaf{path, schema, index, v})
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// basis says whether a value is known, an estimate (with its range) or not
// given.
func basis(v scenario.Value) string {
	switch {
	case !v.IsSet():
		return "not given"
	case v.IsEstimate():
		return "estimate (" + fmtNum(v.Low) + "–" + fmtNum(v.High) + ")"
	}
	return "known"
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func writeInputs(b *book, s *scenario.Scenario, r *model.Report) {
	const sh = sheetInputs
	b.headerRow(sh, 1, "Input", "Value", "Unit", "Known or estimate", "Field", "Defined name")

	b.str(sh, 1, 2, "Used by the cost formulas (the model's likely values)")
	b.style(sh, cell(1, 2), cell(1, 2), b.bold)

	runsBasis := basis(s.Workload.RunsPerMonth)
	if !s.Workload.RunsPerMonth.IsSet() {
		runsBasis = "set by the model (run unit: " + r.RunUnit + ")"
	} else if s.Workload.RunsPerMonth.IsEstimate() {
		runsBasis += "; likely value used"
	}
	b.str(sh, colInLabel, rowRunsPerMonth, "Runs per month")
	b.num(sh, colInValue, rowRunsPerMonth, r.Workload.RunsPerMonth, b.count, "workload.runs_per_month")
	b.str(sh, colInUnit, rowRunsPerMonth, "runs/month")
	b.str(sh, colInBasis, rowRunsPerMonth, runsBasis)
	b.str(sh, colInField, rowRunsPerMonth, "workload.runs_per_month")
	b.str(sh, colInName, rowRunsPerMonth, nameRunsPerMonth)
	b.name(nameRunsPerMonth, sh, colInValue, rowRunsPerMonth)

	b.str(sh, colInLabel, rowHorizonMonths, "Horizon")
	b.num(sh, colInValue, rowHorizonMonths, float64(r.HorizonMonths), b.count, "horizon_months")
	b.str(sh, colInUnit, rowHorizonMonths, "months")
	b.str(sh, colInBasis, rowHorizonMonths, "known")
	b.str(sh, colInField, rowHorizonMonths, "dimensions.economics.horizon_months")
	b.str(sh, colInName, rowHorizonMonths, nameHorizonMonths)
	b.name(nameHorizonMonths, sh, colInValue, rowHorizonMonths)

	row := rowHorizonMonths + 2
	b.str(sh, 1, row, "Scenario inputs (per-direction cost inputs are named cells on Costs)")
	b.style(sh, cell(1, row), cell(1, row), b.bold)
	row++
	section := ""
	for _, l := range leaves(reflect.ValueOf(*s), "", "", 0, nil) {
		top, _, _ := strings.Cut(l.schema, ".")
		if title, ok := inputSections[top]; ok && top != section {
			section = top
			row++
			b.str(sh, 1, row, title)
			b.style(sh, cell(1, row), cell(1, row), b.bold)
			row++
		}
		writeInput(b, row, l, s.Currency)
		row++
	}
	b.widths(sh, 40, 16, 18, 26, 40, 18)
	b.freeze(sh, 1)
}

// writeInput writes one scenario input on row of the Inputs sheet.
func writeInput(b *book, row int, l leaf, currency string) {
	const sh = sheetInputs
	lab, ok := inputLabels[l.schema]
	if !ok {
		lab = inputLabel{label: l.schema}
	}
	label := lab.label
	if l.index > 0 {
		label = fmt.Sprintf("%s (%d)", label, l.index)
	}
	b.str(sh, colInLabel, row, label)
	b.str(sh, colInUnit, row, strings.ReplaceAll(lab.unit, "¤", currency))
	b.str(sh, colInField, row, l.path)

	given := "known"
	switch v := l.v.Interface().(type) {
	case scenario.Value:
		given = basis(v)
		if v.IsSet() {
			b.num(sh, colInValue, row, v.Likely, b.count, l.path)
		}
	case string:
		if v == "" {
			given = "not given"
		}
		b.str(sh, colInValue, row, v)
	case bool:
		b.str(sh, colInValue, row, yesNo(v))
	case int:
		if v == 0 {
			given = "not given"
		} else {
			b.num(sh, colInValue, row, float64(v), b.count, l.path)
		}
	case float64:
		if v == 0 {
			given = "not given"
		} else {
			b.num(sh, colInValue, row, v, b.count, l.path)
		}
	case uint64:
		// Text: a seed may exceed the 15 significant digits a cell keeps.
		if v == 0 {
			given = "not given"
		} else {
			b.str(sh, colInValue, row, strconv.FormatUint(v, 10))
		}
	case []string:
		if len(v) == 0 {
			given = "not given"
		}
		b.str(sh, colInValue, row, strings.Join(v, ", "))
	default:
		if l.v.Kind() == reflect.Slice && l.v.Len() == 0 {
			given = "not given" // an empty list of objects
		} else {
			b.str(sh, colInValue, row, fmt.Sprint(v))
		}
	}
	b.str(sh, colInBasis, row, given)
}

// inputTitle is the human label of an estimate's path as the Monte Carlo
// run names it ("workload.mfu", "data.lifecycle[2].owner",
// "options.hpc.queue_wait_hours (catalog)"), with its unit; the path itself
// when no label is known.
func inputTitle(path, currency string) string {
	p, fromCatalog := strings.CutSuffix(path, " (catalog)")
	lab, ok := inputLabels[indexRE.ReplaceAllString(p, "[]")]
	if !ok {
		return path
	}
	t := lab.label
	if lab.unit != "" {
		t += " (" + strings.ReplaceAll(lab.unit, "¤", currency) + ")"
	}
	if fromCatalog {
		t += ", catalog estimate"
	}
	return t
}

// indexRE matches a list index in a JSON path.
var indexRE = regexp.MustCompile(`\[[0-9]+\]`)
