package present

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"hostplan/internal/scenario"
)

// DirectionTitle names a hosting direction for people ("Cloud IaaS"); an
// unknown code is humanised. The names themselves are
// scenario.DirectionTitle, which the model also writes into each report.
func DirectionTitle(d string) string {
	if t, ok := scenario.DirectionTitle[d]; ok {
		return t
	}
	return Humanize(d)
}

// ShapeTitle names a workload shape for people ("Fine-tuning"), from the
// seed's table of workload shapes; an unknown code is humanised. Lower
// gives the form used inside a sentence.
func ShapeTitle(shape string) string { return ChoiceLabel("workload.shape", shape) }

// DimensionTitle names a decision dimension ("Workload shape") by its key
// in scenario.DimensionNames.
func DimensionTitle(name string) string {
	if f, ok := Lookup("dimensions." + name); ok {
		return f.Label
	}
	return Humanize(name)
}

// metricTitles names the figures the model's sensitivity analysis
// reports on (model.Tornado's Metric).
var metricTitles = map[string]string{
	"cost_horizon": "Cost over the horizon",
}

// MetricTitle names a figure of the report by its code ("cost_horizon" →
// "Cost over the horizon"); an unknown code is humanised.
func MetricTitle(metric string) string {
	if t, ok := metricTitles[metric]; ok {
		return t
	}
	return Humanize(metric)
}

// Humanize turns a code such as "snapshot_only" into "Snapshot only", for
// codes that have no label of their own; "" becomes NoValue.
func Humanize(code string) string {
	s := strings.ReplaceAll(code, "_", " ")
	if s == "" {
		return NoValue
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Sentence capitalises the first letter of s.
func Sentence(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// Lower is a title as it reads inside a sentence: the first letter in
// lower case ("Cloud IaaS" → "cloud IaaS", "Fine-tuning" → "fine-tuning"),
// unless the first word is an acronym or mixed case ("HPC", "LoRA"), which
// stays as written.
func Lower(title string) string {
	first, _, _ := strings.Cut(title, " ")
	r, size := utf8.DecodeRuneInString(first)
	if size == 0 || !unicode.IsUpper(r) {
		return title
	}
	for _, c := range first[size:] {
		if unicode.IsUpper(c) {
			return title
		}
	}
	return string(unicode.ToLower(r)) + title[size:]
}

// And joins words as a sentence lists them: "a", "a and b", "a, b and c";
// "" for none.
func And(words ...string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
