package brief

import (
	"errors"
	"fmt"
	"strings"

	"hostplan/internal/scenario"
)

// MinFields is the least number of filled fields a brief needs: with fewer,
// an infrastructure team has too little to start a sizing conversation.
const MinFields = 7

// Sections of the brief, after the seed's three descriptions of a workload.
const (
	SectionPurpose   = "Purpose and success"
	SectionEnvelope  = "Technical envelope"
	SectionOperation = "Access and operation"
)

// Field is one field of the brief, filled from one part of the scenario.
type Field struct {
	Key     string // stable id
	Section string
	Label   string
	Path    string // the scenario field that fills it
	filled  func(s *scenario.Scenario) bool
}

// Fields are the brief's fields, in the order the brief prints them.
var Fields = []Field{
	{"decision", SectionPurpose, "Decision supported", "purpose.decision",
		func(s *scenario.Scenario) bool { return stated(s.Purpose.Decision) }},
	{"success", SectionPurpose, "Workload outcome and success measure", "purpose.success_measure",
		func(s *scenario.Scenario) bool { return stated(s.Purpose.SuccessMeasure) }},
	{"baseline", SectionPurpose, "Evaluation baseline", "purpose.baseline",
		func(s *scenario.Scenario) bool { return stated(s.Purpose.Baseline) }},
	{"runtime", SectionPurpose, "Acceptable runtime", "purpose.acceptable_runtime_hours",
		func(s *scenario.Scenario) bool {
			t := s.Workload.Traffic
			return s.Purpose.AcceptableRuntimeHours.IsSet() || s.Workload.DeadlineHours.IsSet() ||
				(t != nil && t.LatencyTargetMS.IsSet())
		}},
	{"job_type", SectionEnvelope, "Job type", "workload.shape",
		func(s *scenario.Scenario) bool { return stated(s.Workload.Shape) }},
	{"data_volume", SectionEnvelope, "Data volume", "data.volume_gb",
		func(s *scenario.Scenario) bool { return s.Data.VolumeGB.IsSet() && s.Data.VolumeGB.Likely > 0 }},
	{"resources", SectionEnvelope, "Resources", "workload.model",
		func(s *scenario.Scenario) bool {
			w := s.Workload
			named := w.Model.Preset != "" || w.Model.ParamsB > 0 || w.Model.GFLOPsPerItem > 0
			sized := w.TokensPerRunB.IsSet() || w.ItemsPerRunM.IsSet() || (w.Traffic != nil && w.Traffic.PeakRPS.IsSet())
			return named && sized
		}},
	{"software", SectionEnvelope, "Software and precision", "workload.precision",
		func(s *scenario.Scenario) bool { return stated(s.Workload.Precision) }},
	{"storage", SectionEnvelope, "Storage", "data.storage_gbps",
		func(s *scenario.Scenario) bool { return s.Data.StorageGBps.IsSet() || stated(s.Data.ControlledEnv) }},
	{"transfer", SectionEnvelope, "Transfer", "data.movement",
		func(s *scenario.Scenario) bool {
			return stated(s.Data.Movement) && (s.Data.Movement != scenario.MoveSnapshot || s.Data.SnapshotGB.IsSet())
		}},
	{"outputs", SectionEnvelope, "Expected outputs", "data.return_outputs",
		func(s *scenario.Scenario) bool { return len(s.Data.ReturnOutputs) > 0 }},
	{"owner", SectionOperation, "Users and owner", "purpose.owner",
		func(s *scenario.Scenario) bool { return stated(s.Purpose.Owner) }},
	{"classification", SectionOperation, "Classification and residency", "data.classification",
		func(s *scenario.Scenario) bool { return stated(s.Data.Classification) }},
	{"retention", SectionOperation, "Retention and clean-up owner", "data.retention_owner",
		func(s *scenario.Scenario) bool { return stated(s.Data.RetentionOwner) }},
	{"support", SectionOperation, "Operations and support", "dimensions.operations.staff_fte",
		func(s *scenario.Scenario) bool {
			o := s.Dimensions.Operations
			return o.StaffFTE.IsSet() || len(o.Skills) > 0
		}},
}

// placeholders are texts that fill a required field without saying
// anything; they do not count as filled.
var placeholders = map[string]bool{
	"": true, "tbd": true, "tba": true, "todo": true, "?": true, "??": true, "-": true, "—": true,
	"n/a": true, "na": true, "unknown": true, "xxx": true,
}

func stated(s string) bool {
	return !placeholders[strings.ToLower(strings.TrimSpace(s))]
}

// Filled returns the fields s fills and the ones it leaves empty.
func Filled(s *scenario.Scenario) (filled, missing []Field) {
	for _, f := range Fields {
		if f.filled(s) {
			filled = append(filled, f)
		} else {
			missing = append(missing, f)
		}
	}
	return filled, missing
}

// ErrTooFewFields is returned (wrapped in *TooFewFieldsError) when fewer
// than MinFields fields are filled.
var ErrTooFewFields = errors.New("brief: too few fields filled")

// TooFewFieldsError lists what a refused brief is missing.
type TooFewFieldsError struct {
	Filled  int
	Missing []Field
}

func (e *TooFewFieldsError) Error() string {
	names := make([]string, len(e.Missing))
	for i, f := range e.Missing {
		names[i] = fmt.Sprintf("%s (%s)", f.Label, f.Path)
	}
	return fmt.Sprintf("brief: %d of %d fields are filled and at least %d are needed; missing: %s",
		e.Filled, len(Fields), MinFields, strings.Join(names, ", "))
}

func (e *TooFewFieldsError) Unwrap() error { return ErrTooFewFields }
