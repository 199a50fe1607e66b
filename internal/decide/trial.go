package decide

import (
	"fmt"
	"math"
	"strconv"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Trial is the first compute request: the smallest resource profile that
// answers the next decision (the seed's right-sizing principle: a short,
// representative run that shows the bottleneck before the job is scaled).
type Trial struct {
	Direction string `json:"direction"`
	GPU       string `json:"gpu"`  // catalog GPU id; "" for a managed service
	GPUs      int    `json:"gpus"` // the smallest count that fits (one replica for serving)
	// GPUCounts are the counts at which throughput is measured: two or
	// three points are enough to fit the scaling curve (hostplan fit).
	GPUCounts     []int   `json:"gpu_counts"`
	MeasuredSteps int     `json:"measured_steps"` // per count, after warm-up; 0 when not step-based
	Hours         float64 `json:"hours"`          // elapsed, all counts in turn
	GPUHours      float64 `json:"gpu_hours"`
	// ShareOfRun is the trial's GPU-hours as a share of one full run's.
	ShareOfRun  float64 `json:"share_of_run"`
	SampleGB    float64 `json:"sample_gb"`
	SampleFiles int     `json:"sample_files"` // 0 when the file count is not known
	// Answers is the question the trial answers: the winner's bottleneck
	// question.
	Answers    string   `json:"answers"`
	Evidence   []string `json:"evidence"`    // what the trial must record
	AcceptedBy string   `json:"accepted_by"` // who accepts the result
	CleanupBy  string   `json:"cleanup_by"`  // who confirms the temporary data is gone
	Basis      string   `json:"basis"`       // how the trial was sized
}

// Bounds of the first trial.
const (
	trialMaxHours = 8.0       // elapsed: it must finish within a working day
	trialMaxShare = 0.02      // GPU-hours: at most 2 % of one full run…
	trialMinGPUH  = 1.0       // …but at least one GPU-hour, or it measures start-up, not throughput
	setupHours    = 10.0 / 60 // per GPU count: start, load the model and data, compile
	warmupSteps   = 5
	measureSteps  = 20
	minSteps      = 5
	servingHours  = 2.0 // a load test of one replica at rising concurrency
	managedHours  = 1.0 // a sample of requests through the provider's API
)

// firstTrial sizes the trial on the recommended direction d.
func firstTrial(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) *Trial {
	if d == nil {
		return nil
	}
	t := &Trial{Direction: d.Direction, GPU: d.GPU, GPUCounts: []int{}, Answers: BottleneckQuestion(d.Bottleneck)}
	t.AcceptedBy = s.Purpose.Owner
	if t.AcceptedBy == "" {
		t.AcceptedBy = s.Data.RetentionOwner
	}
	t.CleanupBy = s.Data.RetentionOwner
	if t.CleanupBy == "" {
		t.CleanupBy = t.AcceptedBy
	}
	switch {
	case d.GPU == "":
		t.Hours = managedHours
		t.Basis = "a managed service: one hour of representative requests through the provider's API, no GPUs to reserve"
	case d.Serving != nil:
		tp := max(1, d.Serving.GPUsPerReplica)
		t.GPUs, t.GPUCounts = tp, []int{tp}
		t.Hours = servingHours
		t.GPUHours = float64(tp) * servingHours
		t.Basis = fmt.Sprintf("one replica (%s) under a %.0f h load test, concurrency rising to the planned batch of %d", present.GPUs(d.GPU, tp), servingHours, d.Serving.Batch)
	default:
		stepTrial(t, d)
		if d.Direction == scenario.HPC || (d.Direction == scenario.Hybrid && s.Options.Hybrid.BurstTo == scenario.HPC) {
			t.Basis += "; queue waits come on top"
		}
	}
	if run := runGPUHours(d); run > 0 && t.GPUHours > 0 {
		t.ShareOfRun = t.GPUHours / run
	}
	sampleData(t, s, d)
	t.Evidence = evidence(t, s, d)
	return t
}

// runGPUHours is the GPU-hours of one run of d, against which a trial is
// weighed: the report's, or for a dedicated deployment (priced by the
// replica-hour, with no GPU-hours of its own) a month of its replicas.
func runGPUHours(d *model.DirectionResult) float64 {
	sv := d.Serving
	if d.GPUHoursPerRun > 0 || sv == nil {
		return d.GPUHoursPerRun
	}
	if sv.ReplicaHoursPerDay > 0 {
		return sv.ReplicaHoursPerDay * float64(sv.GPUsPerReplica) * costid.HoursPerMonth / 24
	}
	return float64(d.GPUs) * costid.HoursPerMonth
}

// stepTrial measures throughput at up to three GPU counts from the
// smallest that fits, doubling, and not past max(planned, 2 × smallest).
// Each count costs a setup plus warm-up and measured steps at that count's
// step time (the report's scaling table). When the trial exceeds the
// bounds, the largest count goes first (down to two), then the measured
// steps halve (down to five).
func stepTrial(t *Trial, d *model.DirectionResult) {
	var pts []model.ScalingPoint
	n0 := 0
	for _, p := range d.Scaling {
		if !p.Fits {
			continue
		}
		if n0 == 0 {
			n0 = p.GPUs
		}
		if p.GPUs <= max(d.GPUs, 2*n0) && len(pts) < 3 {
			pts = append(pts, p)
		}
	}
	if n0 == 0 { // no scaling table: measure at the planned count only
		n0 = max(1, d.GPUs)
		step := 0.0
		if d.ComputeHours > 0 {
			step = 60 // an unknown step: assume a minute
		}
		pts = []model.ScalingPoint{{GPUs: n0, StepSeconds: step}}
	}
	t.GPUs = n0
	bound := math.Max(trialMinGPUH, trialMaxShare*d.GPUHoursPerRun)
	steps := measureSteps
	size := func() (hours, gpuHours float64) {
		for _, p := range pts {
			h := setupHours + float64(warmupSteps+steps)*p.StepSeconds/3600
			hours += h
			gpuHours += h * float64(p.GPUs)
		}
		return hours, gpuHours
	}
	h, gh := size()
	for h > trialMaxHours || gh > bound {
		if len(pts) > 2 {
			pts = pts[:len(pts)-1]
		} else if steps > minSteps {
			steps = max(minSteps, steps/2)
		} else {
			break
		}
		h, gh = size()
	}
	for _, p := range pts {
		t.GPUCounts = append(t.GPUCounts, p.GPUs)
	}
	t.MeasuredSteps = steps
	t.Hours, t.GPUHours = h, gh
	t.Basis = fmt.Sprintf("%d warm-up and %d measured steps at each of %s × %s, %.0f min setup each; bounded by %.0f h elapsed and %.1f GPU-hours (the larger of 2 %% of one run and 1 GPU-hour)",
		warmupSteps, steps, intList(t.GPUCounts), d.GPU, setupHours*60, trialMaxHours, bound)
	if h > trialMaxHours || gh > bound {
		t.Basis += "; even the smallest useful trial exceeds that bound, so ask for it explicitly"
	}
}

// sampleData sizes the data sample: 1 % of what the run stages (the
// approved snapshot for hybrid), 5 % when the data path is the
// bottleneck, at least 1 GB and at most all of it; the files in proportion.
func sampleData(t *Trial, s *scenario.Scenario, d *model.DirectionResult) {
	vol := s.Data.VolumeGB.Or(0)
	staged := vol
	if d.Direction == scenario.Hybrid && s.Data.SnapshotGB.IsSet() {
		staged = s.Data.SnapshotGB.Likely
	}
	frac := 0.01
	if d.Bottleneck == model.BottleneckDataPath {
		frac = 0.05
	}
	t.SampleGB = math.Min(staged, math.Max(frac*staged, 1))
	if fc := s.Data.FileCount; fc.IsSet() && vol > 0 {
		t.SampleFiles = max(1, int(math.Round(fc.Likely*t.SampleGB/vol)))
	}
}

func evidence(t *Trial, s *scenario.Scenario, d *model.DirectionResult) []string {
	unit := "tokens"
	if s.Workload.Model.GFLOPsPerItem > 0 {
		unit = "items"
	}
	ev := []string{"elapsed time of each part: transfer of the sample, loading, warm-up and the measured work"}
	if d.GPU == "" {
		// A provider's service: there are no GPU counts to scale over.
		ev = append(ev, fmt.Sprintf("effective throughput in %s per second through the provider's API", unit))
	} else {
		ev = append(ev, fmt.Sprintf("effective throughput in %s per second at each GPU count, kept as trial points for the scaling fit", unit))
	}
	if d.Serving != nil {
		ev = append(ev, fmt.Sprintf("latency percentiles (p50, p95) at each concurrency up to %d, against the %s target", d.Serving.Batch, latencyTarget(s)))
	}
	if d.GPU == "" {
		ev = append(ev, "rate-limit responses, errors and the price actually charged per million tokens")
	}
	if d.Direction == scenario.HPC || (d.Direction == scenario.Hybrid && s.Options.Hybrid.BurstTo == scenario.HPC) {
		ev = append(ev, "the queue wait of each job, from submission to start")
	}
	files := "the sample's files"
	if t.SampleFiles > 0 {
		files = "the sample's " + present.Count(t.SampleFiles, "file")
	}
	ev = append(ev,
		fmt.Sprintf("failed, missing or quarantined files out of %s, checked against its manifest (snapshot id, file count, checksums)", files),
		"temporary storage used at its peak, and when it was deleted",
		fmt.Sprintf("who accepts the result: %s; who confirms the clean-up: %s", orUnnamed(t.AcceptedBy), orUnnamed(t.CleanupBy)),
	)
	return ev
}

func latencyTarget(s *scenario.Scenario) string {
	if tr := s.Workload.Traffic; tr != nil && tr.LatencyTargetMS.IsSet() {
		return fmt.Sprintf("%.0f ms", tr.LatencyTargetMS.Likely)
	}
	return "(unstated)"
}

func orUnnamed(s string) string {
	if s == "" {
		return "not named"
	}
	return s
}

// intList lists GPU counts as a sentence does: "1, 2 and 4".
func intList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return present.And(s...)
}
