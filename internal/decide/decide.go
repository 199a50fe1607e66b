package decide

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Decision is the recommendation for one scenario with its reasons: plain
// data, encoded as JSON by the CLI and read by the brief.
type Decision struct {
	ScenarioID string `json:"scenario_id"`
	// Recommendation is the direction the weights rank first, "" when no
	// direction is feasible.
	Recommendation string   `json:"recommendation"`
	Summary        string   `json:"summary"` // the decision in two or three sentences
	Weights        []Weight `json:"weights"`
	// Ranking lists the feasible directions, best first.
	Ranking    []string    `json:"ranking"`
	Directions []Direction `json:"directions"` // all five, in the report's order
	// WhyWinner lists the dimensions on which the winner's weighted lead
	// over the runner-up is positive, largest first.
	WhyWinner  []Lead     `json:"why_winner"`
	Why        string     `json:"why"`
	RunnerUp   *RunnerUp  `json:"runner_up"` // nil with fewer than two feasible directions
	Robustness Robustness `json:"robustness"`
	FirstTrial *Trial     `json:"first_trial"` // nil when no direction is feasible
}

// Weight is one dimension's weight as the scenario gives it and normalised.
type Weight struct {
	Dimension  string  `json:"dimension"`
	Given      float64 `json:"given"`
	Normalised float64 `json:"normalised"`
}

// Direction is one hosting direction's part of the decision.
type Direction struct {
	Direction string  `json:"direction"`
	Title     string  `json:"title"`
	Feasible  bool    `json:"feasible"`
	Rank      int     `json:"rank"`   // 1 is recommended; 0 when infeasible
	Total     float64 `json:"total"`  // weighted score 0–1; 0 when infeasible
	Scores    []Score `json:"scores"` // the five dimensions; empty when infeasible
	// Constraints are the model's reasons for ruling it out, classified.
	Constraints []Constraint `json:"constraints"`
	Bottleneck  string       `json:"bottleneck"`
	// Question is the first infrastructure question: the bottleneck's for
	// a feasible direction, the first constraint's for an infeasible one.
	Question string `json:"first_question"`
	// StaffFTE is the operating effort the model charges (0 when it states
	// none); MissingSkills are the operating skills it needs that the team
	// lacks (dimensions.operations.skills).
	StaffFTE      float64  `json:"staff_fte"`
	MissingSkills []string `json:"missing_skills"`
}

// Kinds returns the distinct constraint kinds, in the order first met.
func (d *Direction) Kinds() []Kind {
	var out []Kind
	for _, c := range d.Constraints {
		if !containsKind(out, c.Kind) {
			out = append(out, c.Kind)
		}
	}
	return out
}

func containsKind(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// Lead is the winner's weighted lead over the runner-up on one dimension.
type Lead struct {
	Dimension string  `json:"dimension"`
	Winner    float64 `json:"winner_score"`
	RunnerUp  float64 `json:"runner_up_score"`
	Weight    float64 `json:"weight"` // normalised
	Lead      float64 `json:"weighted_lead"`
}

// RunnerUp says what would have to change for the second direction to win.
type RunnerUp struct {
	Direction string  `json:"direction"`
	Gap       float64 `json:"gap"` // winner's total − runner-up's total
	// Weight is the smallest single weight change at which the two tie,
	// nil when no single weight can do it.
	Weight *WeightChange `json:"weight_change"`
	// Cost is the runner-up's cost over the horizon at which it ties the
	// winner, nil when no cost reduction alone is enough.
	Cost    *CostChange `json:"cost_change"`
	Summary string      `json:"summary"`
}

// WeightChange moves one weight, the others staying as given.
type WeightChange struct {
	Dimension string  `json:"dimension"`
	From      float64 `json:"from"` // the weight as given
	To        float64 `json:"to"`   // the weight at which the two tie
	// NewLeader leads just past the tie: the runner-up, or a third
	// direction that overtakes both.
	NewLeader string `json:"new_leader"`
}

// CostChange is a cost over the horizon.
type CostChange struct {
	From      float64 `json:"from"`
	To        float64 `json:"to"`
	Reduction float64 `json:"reduction"` // 1 − to/from
}

// Robustness is the outcome of moving each weight by ±Perturbation.
type Robustness struct {
	// Verdict is robust, close, fragile, or unranked when nothing is
	// feasible.
	Verdict Verdict `json:"verdict"`
	// Fragile is true when some ±Perturbation change of one weight
	// changes the winner or swaps the first two (Verdict is fragile).
	Fragile bool `json:"fragile"`
	// Perturbation is the relative weight change each check applies
	// (0.2: ±20 %).
	Perturbation float64  `json:"perturbation"`
	FlippedBy    []string `json:"flipped_by"` // e.g. "economics +20 %"
	Checks       []Check  `json:"checks"`
	// Summary says what the checks found, in a sentence that does not
	// repeat the verdict (a face shows Verdict.Label before it).
	Summary string `json:"summary"`
}

// Verdict is the outcome of the robustness check.
type Verdict string

// The verdicts.
const (
	Robust Verdict = "robust" // the first two keep their places under every check, by a lead of CloseLead or more
	// Close: the first two keep their places under every check, but the
	// winner leads by less than CloseLead.
	Close    Verdict = "close"
	Fragile  Verdict = "fragile"  // some check changes the winner or swaps the first two
	Unranked Verdict = "unranked" // no direction is feasible: nothing to check
)

// CloseLead is the lead, in weighted score out of 1, below which a
// recommendation that survives every robustness check is called close, not
// robust: a lead of 0.016 turns on small differences in the dimensions'
// scores, which are judgements, however the weights move.
const CloseLead = 0.05

// Text is the robustness in one sentence: the verdict's label, then the
// summary ("Robust: Hybrid stays first …").
func (rb Robustness) Text() string {
	if l := rb.Verdict.Label(); l != "" {
		return l + ": " + rb.Summary
	}
	return rb.Summary
}

// Label is the verdict as a lead-in word: "Robust", "Fragile", or "" for
// unranked.
func (v Verdict) Label() string {
	switch v {
	case Robust:
		return "Robust"
	case Close:
		return "Close"
	case Fragile:
		return "Fragile"
	}
	return ""
}

// Check is one perturbation: one weight scaled by 1 + Change, the others
// as given, then all renormalised.
type Check struct {
	Dimension string  `json:"dimension"`
	Change    float64 `json:"change"` // −0.2 or +0.2
	Winner    string  `json:"winner"`
	RunnerUp  string  `json:"runner_up"`
	Survives  bool    `json:"survives"`
}

// Perturbation is the relative weight change of the robustness check.
const Perturbation = 0.2

// Errors for inputs that do not belong together.
var (
	ErrNoReport = errors.New("decide: no scenario or no report")
	ErrMismatch = errors.New("decide: the report is not for this scenario")
)

// Decide classifies the report's constraints, scores and ranks the feasible
// directions by the scenario's weights and explains the result. s must be
// the scenario r was evaluated from (valid: Evaluate validated it).
func Decide(s *scenario.Scenario, r *model.Report) (*Decision, error) {
	if s == nil || r == nil {
		return nil, ErrNoReport
	}
	if s.ID != r.ScenarioID {
		return nil, fmt.Errorf("%w: scenario %q, report %q", ErrMismatch, s.ID, r.ScenarioID)
	}
	if len(r.Directions) == 0 {
		return nil, fmt.Errorf("%w: the report has no directions", ErrMismatch)
	}
	raw := s.Dimensions.Weights()
	if sumOf(raw[:]) <= 0 {
		return nil, errors.New("decide: all five weights are zero (dimensions.*.weight)")
	}
	norm := normalise(raw[:])
	dec := &Decision{ScenarioID: s.ID, Ranking: []string{}, WhyWinner: []Lead{}}
	for i, name := range scenario.DimensionNames {
		dec.Weights = append(dec.Weights, Weight{Dimension: name, Given: raw[i], Normalised: norm[i]})
	}

	sc := &scorer{s: s, r: r, cheapest: math.Inf(1)}
	for _, d := range r.Directions {
		if d.Feasible && d.CostHorizon < sc.cheapest {
			sc.cheapest = d.CostHorizon
		}
	}
	k := &ranking{raw: raw[:]}
	var rows []float64
	var costs []float64
	for i := range r.Directions {
		d := &r.Directions[i]
		dd := Direction{Direction: d.Direction, Title: d.Title, Feasible: d.Feasible,
			Scores: []Score{}, Constraints: []Constraint{}, Bottleneck: bottleneckLabel(d.Direction, d.Bottleneck)}
		dd.StaffFTE, _ = staffFTE(d)
		dd.MissingSkills = sc.missingSkills(d.Direction)
		for _, why := range d.Reasons {
			c, _ := Classify(why)
			dd.Constraints = append(dd.Constraints, c)
		}
		if d.Feasible {
			for j, sv := range sc.scores(d) {
				sv.Weight = norm[j]
				sv.Weighted = sv.Score * norm[j]
				dd.Scores = append(dd.Scores, sv)
				rows = append(rows, sv.Score)
			}
			k.names = append(k.names, d.Direction)
			costs = append(costs, d.CostHorizon)
			dd.Question = BottleneckQuestion(d.Bottleneck)
		} else if len(dd.Constraints) > 0 {
			dd.Question = dd.Constraints[0].Question
		}
		dec.Directions = append(dec.Directions, dd)
	}

	if len(k.names) == 0 {
		dec.Summary = noneFeasible(dec)
		dec.Why = "No direction meets every constraint, so none is ranked."
		dec.Robustness = Robustness{Verdict: Unranked, Perturbation: Perturbation, FlippedBy: []string{}, Checks: []Check{},
			Summary: "Nothing to rank: no direction is feasible."}
		return dec, nil
	}
	k.S = mat.NewDense(len(k.names), nDims, rows)
	totals := k.totals(k.raw)
	ord := order(totals)
	for rank, i := range ord {
		dec.Ranking = append(dec.Ranking, k.names[i])
		dd := dec.For(k.names[i])
		dd.Rank = rank + 1
		dd.Total = totals[i]
	}
	dec.Recommendation = dec.Ranking[0]
	win := ord[0]
	if len(ord) > 1 {
		run := ord[1]
		dec.WhyWinner = leads(k, win, run, norm)
		dec.Why = whyText(dec, k, win, run, totals)
		dec.RunnerUp = runnerUp(dec, k, win, run, totals, costs, r)
	} else {
		dec.Why = onlyFeasibleText(dec)
	}
	dec.Robustness = robustness(k, ord)
	dec.FirstTrial = firstTrial(s, r, r.Direction(dec.Recommendation))
	dec.Summary = summary(dec)
	return dec, nil
}

// For returns the part of the decision for direction d, or nil.
func (dec *Decision) For(direction string) *Direction {
	for i := range dec.Directions {
		if dec.Directions[i].Direction == direction {
			return &dec.Directions[i]
		}
	}
	return nil
}

// leads returns the dimensions where the winner's weighted lead over the
// runner-up is positive, largest first.
func leads(k *ranking, win, run int, w []float64) []Lead {
	out := []Lead{}
	for j := 0; j < nDims; j++ {
		a, b := k.S.At(win, j), k.S.At(run, j)
		if l := w[j] * (a - b); l > 1e-9 {
			out = append(out, Lead{Dimension: scenario.DimensionNames[j], Winner: a, RunnerUp: b, Weight: w[j], Lead: l})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Lead > out[j].Lead })
	return out
}

// dimWords names a decision dimension inside a sentence ("workload shape").
func dimWords(name string) string { return present.Lower(present.DimensionTitle(name)) }

func whyText(dec *Decision, k *ranking, win, run int, totals []float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s leads %s by %.3f", present.DirectionTitle(k.names[win]), present.DirectionTitle(k.names[run]), totals[win]-totals[run])
	if len(dec.WhyWinner) == 0 {
		b.WriteString(" only through the order of the directions (a tie).")
		return b.String()
	}
	b.WriteString(", gained on ")
	for i, l := range dec.WhyWinner {
		if i == 2 {
			break
		}
		if i > 0 {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "%s (+%.3f: %.2f against %.2f at weight %.2f)", dimWords(l.Dimension), l.Lead, l.Winner, l.RunnerUp, l.Weight)
	}
	b.WriteString(".")
	return b.String()
}

func onlyFeasibleText(dec *Decision) string {
	var parts []string
	for _, d := range dec.Directions {
		if d.Feasible {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", d.Title, KindList(d.Kinds())))
	}
	return fmt.Sprintf("%s is the only direction that meets every constraint; ruled out: %s.", present.DirectionTitle(dec.Recommendation), strings.Join(parts, ", "))
}

// KindList names constraint kinds for a reader: "sovereignty, operations".
func KindList(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

func runnerUp(dec *Decision, k *ranking, win, run int, totals, costs []float64, r *model.Report) *RunnerUp {
	ru := &RunnerUp{Direction: k.names[run], Gap: totals[win] - totals[run]}
	var parts []string
	if dim, to, ok := k.weightFlip(win, run); ok {
		leader := k.names[k.leaderPast(dim, to)]
		ru.Weight = &WeightChange{Dimension: scenario.DimensionNames[dim], From: k.raw[dim], To: to, NewLeader: leader}
		verb := "rose"
		if to < k.raw[dim] {
			verb = "fell"
		}
		p := fmt.Sprintf("the %s weight %s from %s to %s (the others as given)", dimWords(ru.Weight.Dimension), verb, present.Figure(k.raw[dim]), present.Figure(to))
		switch leader {
		case ru.Direction:
		case k.names[win]:
			p += ", where the two tie but it cannot pass"
		default:
			p += fmt.Sprintf(", though %s would then lead both", present.DirectionTitle(leader))
		}
		parts = append(parts, p)
	}
	if to, ok := k.costFlip(win, run, costs); ok && to < costs[run] {
		ru.Cost = &CostChange{From: costs[run], To: to, Reduction: 1 - to/costs[run]}
		parts = append(parts, fmt.Sprintf("its cost over %d months fell from %s to %s %s (−%s)",
			r.HorizonMonths, present.Amount(costs[run]), present.Amount(to), r.Currency, present.Percent(ru.Cost.Reduction)))
	}
	if len(parts) == 0 {
		ru.Summary = fmt.Sprintf("%s trails by %.3f, and neither one weight nor its cost alone can close the gap.", present.DirectionTitle(ru.Direction), ru.Gap)
	} else {
		ru.Summary = fmt.Sprintf("%s (%.3f behind) would draw level if %s.", present.DirectionTitle(ru.Direction), ru.Gap, strings.Join(parts, ", or if "))
	}
	return ru
}

// robustness moves each weight by ±Perturbation (relative, the others as
// given, then renormalised) and checks that the winner and the runner-up
// keep their places.
func robustness(k *ranking, base []int) Robustness {
	rb := Robustness{Verdict: Robust, Perturbation: Perturbation, FlippedBy: []string{}, Checks: []Check{}}
	for j := 0; j < nDims; j++ {
		for _, f := range []float64{-Perturbation, Perturbation} {
			w := append([]float64(nil), k.raw...)
			w[j] *= 1 + f
			ch := Check{Dimension: scenario.DimensionNames[j], Change: f, Survives: true}
			if sumOf(w) > 0 {
				o := order(k.totals(w))
				ch.Winner = k.names[o[0]]
				ch.Survives = o[0] == base[0]
				if len(o) > 1 {
					ch.RunnerUp = k.names[o[1]]
					ch.Survives = ch.Survives && o[1] == base[1]
				}
			}
			if !ch.Survives {
				rb.Fragile, rb.Verdict = true, Fragile
				rb.FlippedBy = append(rb.FlippedBy, fmt.Sprintf("%s %+.0f %%", dimWords(ch.Dimension), f*100))
			}
			rb.Checks = append(rb.Checks, ch)
		}
	}
	switch {
	case len(k.names) == 1:
		rb.Summary = "only one direction is feasible, so no weight can change the recommendation."
	case !rb.Fragile:
		totals := k.totals(k.raw)
		if lead := totals[base[0]] - totals[base[1]]; lead < CloseLead {
			rb.Verdict = Close
			rb.Summary = fmt.Sprintf("%s leads %s by only %s of 1; no single weight moved by ±%s reorders them, but a lead this small turns on small differences in the scores.",
				present.DirectionTitle(k.names[base[0]]), present.DirectionTitle(k.names[base[1]]), present.Fixed(lead, 3), present.Percent(Perturbation))
			break
		}
		rb.Summary = fmt.Sprintf("%s stays first and %s second when any one weight moves by ±%s.", present.DirectionTitle(k.names[base[0]]), present.DirectionTitle(k.names[base[1]]), present.Percent(Perturbation))
	default:
		var flips []string
		for _, c := range rb.Checks {
			if c.Survives {
				continue
			}
			what := fmt.Sprintf("puts %s first", present.DirectionTitle(c.Winner))
			if c.Winner == k.names[base[0]] {
				what = fmt.Sprintf("puts %s second", present.DirectionTitle(c.RunnerUp))
			}
			flips = append(flips, fmt.Sprintf("%s %+.0f %% %s", dimWords(c.Dimension), c.Change*100, what))
		}
		rb.Summary = strings.Join(flips, "; ") + "."
	}
	return rb
}

func noneFeasible(dec *Decision) string {
	var parts []string
	for _, d := range dec.Directions {
		parts = append(parts, fmt.Sprintf("%s (%s)", d.Title, KindList(d.Kinds())))
	}
	return "No direction is feasible: " + strings.Join(parts, ", ") + ". Relax a constraint or change the workload before asking for compute."
}

func summary(dec *Decision) string {
	var b strings.Builder
	top := dec.For(dec.Recommendation)
	fmt.Fprintf(&b, "%s is recommended (score %.2f of 1).", top.Title, top.Total)
	if len(dec.Ranking) > 1 {
		second := dec.For(dec.Ranking[1])
		fmt.Fprintf(&b, " Runner-up: %s (%.2f).", second.Title, second.Total)
	} else {
		b.WriteString(" It is the only feasible direction.")
	}
	var out []string
	for _, d := range dec.Directions {
		if !d.Feasible {
			out = append(out, fmt.Sprintf("%s (%s)", d.Title, KindList(d.Kinds())))
		}
	}
	if len(out) > 0 {
		fmt.Fprintf(&b, " Ruled out: %s.", strings.Join(out, ", "))
	}
	if dec.Robustness.Fragile {
		fmt.Fprintf(&b, " The order is fragile (%s).", strings.Join(dec.Robustness.FlippedBy, ", "))
	} else if len(dec.Ranking) > 1 {
		fmt.Fprintf(&b, " The order survives ±%s on any weight.", present.Percent(dec.Robustness.Perturbation))
	}
	return b.String()
}
