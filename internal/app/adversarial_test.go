package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Adversarial scenarios, each with the answer an infrastructure expert
// would sign, run through the planner as the window and the commands run
// them (check, evaluate with the catalog in use, decide). Each scenario
// file (testdata/adversarial) says in its description why the answer is
// what it is.
func TestAdversarialScenarios(t *testing.T) {
	cases := []struct {
		file string
		// want is the direction an expert recommends; not, when set, a
		// direction an expert rules out, with the reason code the model
		// must give for it.
		want    string
		not     string
		because model.ReasonCode
	}{
		// A few questions an hour with an 8 B model: a rented or owned GPU
		// would idle almost all day; per-token pricing costs tens of
		// dollars a month.
		{file: "tiny-occasional-inference.json", want: scenario.Managed},
		// Restricted personal data that may leave only as a snapshot,
		// inside the EU; 32 GPUs busy most of every month for three years;
		// the organisation runs its own datacentre: owned hardware is
		// both the sovereign and the cheaper answer for steady work.
		{file: "sovereign-steady-training.json", want: scenario.OnPrem},
		// One experiment of some 700 GPU-hours under a project
		// allocation of 10,000 on a national system, run by someone who
		// knows the scheduler: the allocation costs nothing but the wait.
		{file: "one-off-research-allocation.json", want: scenario.HPC},
		// About 4,000 H100 GPU-hours a month for three years on a 64-GPU
		// university partition that gives one project a quarter of it:
		// the work would hold more than its share month after month.
		{file: "steady-training-fair-share.json", not: scenario.HPC, because: model.ReasonFairShareExceeded},
	}
	p := openTemp(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "adversarial", c.file))
			if err != nil {
				t.Fatal(err)
			}
			s, err := scenario.Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Check(ctx, s); err != nil {
				t.Fatalf("Check: %v", err)
			}
			r, err := p.Evaluate(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			d, err := decide.Decide(s, r)
			if err != nil {
				t.Fatal(err)
			}
			if c.want != "" && d.Recommendation != c.want {
				t.Errorf("recommended %q, want %q: %s", d.Recommendation, c.want, d.Summary)
			}
			if c.not == "" {
				return
			}
			if d.Recommendation == c.not || d.Recommendation == "" {
				t.Errorf("recommended %q, want a feasible direction other than %q: %s", d.Recommendation, c.not, d.Summary)
			}
			x := r.Direction(c.not)
			if x.Feasible || !slices.ContainsFunc(x.Reasons, func(rs model.Reason) bool { return rs.Code == c.because }) {
				t.Errorf("%s: feasible %v, reasons %v; want it ruled out with %s", c.not, x.Feasible, x.Reasons, c.because)
			}
		})
	}
}
