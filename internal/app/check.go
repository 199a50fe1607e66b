package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Check returns every problem of s that would stop Evaluate, Analyze or
// Save, as scenario.Errors naming the fields; nil when s evaluates. It is
// what those three run first: the scenario's own rules and ranges
// (scenario.Validate), its price overrides and its catalog references
// (preset, trial GPU, managed and cloud offers, node, partition) against
// the catalog in use, all reported together; then the model itself. So a
// scenario Check passes evaluates, and one it refuses is refused by every
// command and by the window alike.
func (p *Planner) Check(ctx context.Context, s *scenario.Scenario) error {
	_, err := p.Evaluate(ctx, s)
	return err
}

// checked runs the checks that need no model (see Check) and returns the
// catalog in use.
func (p *Planner) checked(ctx context.Context, s *scenario.Scenario) (*catalog.Catalog, error) {
	if s == nil {
		return nil, errors.New("no scenario")
	}
	cat, err := p.begin(ctx)
	if err != nil {
		return nil, err
	}
	if errs := Problems(s, cat); errs != nil {
		return nil, errs
	}
	return cat, nil
}

// Problems is every problem of s that can be found without running the
// model, against cat: scenario.Validate, then the scenario's price
// overrides applied to cat, then every catalog reference against the
// result. nil when there is none.
func Problems(s *scenario.Scenario, cat *catalog.Catalog) scenario.Errors {
	errs := scenario.Validate(s)
	eff, perrs := cat.ApplyScenario(s.PriceOverrides, nil)
	errs = append(errs, perrs...)
	errs = append(errs, model.CurrencyProblems(s, eff)...)
	errs = append(errs, unknownRates(s, eff)...)
	errs = append(errs, references(s, eff)...)
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// unknownRates reports each exchange rate of s for a currency the catalog
// does not know: no price of it is in that currency, so the rate converts
// nothing (a typing error, most likely).
func unknownRates(s *scenario.Scenario, cat *catalog.Catalog) scenario.Errors {
	var errs scenario.Errors
	known := cat.KnownCurrencies()
	for i, x := range s.ExchangeRates {
		if len(x.Currency) == 3 && !slices.Contains(known, x.Currency) {
			errs = append(errs, scenario.FieldError{Path: fmt.Sprintf("exchange_rates[%d].currency", i),
				Problem: fmt.Sprintf("%s is not a currency the catalog knows", x.Currency), Allowed: strings.Join(known, ", ")})
		}
	}
	return errs
}

// references checks every catalog id the scenario names against cat, in
// the words the model uses when it meets one it cannot resolve.
func references(s *scenario.Scenario, cat *catalog.Catalog) scenario.Errors {
	var errs scenario.Errors
	missing := func(path, id string, kind catalog.Kind) {
		errs = append(errs, scenario.FieldError{Path: path, Problem: fmt.Sprintf("%q is not in the catalog", id), Allowed: strings.Join(cat.IDs(kind), ", ")})
	}
	w, o := s.Workload, s.Options
	// The fields that name a catalog entry, each of the kind its facts say
	// (package present); the cloud offer also needs a price for its mode.
	for _, ref := range []struct{ path, id string }{
		{"workload.model.preset", w.Model.Preset},
		{"workload.trial_gpu", w.TrialGPU},
		{"options.managed.offer", o.Managed.Offer},
		{"options.cloud.offer", o.Cloud.Offer},
		{"options.on_prem.node", o.OnPrem.Node},
		{"options.hpc.partition", o.HPC.Partition},
	} {
		kind := present.FactsOf(ref.path).Catalog
		if ref.id == "" {
			continue
		}
		if _, ok := cat.Item(kind, ref.id); !ok {
			missing(ref.path, ref.id, kind)
		}
	}
	if id := o.Cloud.Offer; id != "" {
		x, ok := cat.CloudOffer(id)
		mode := o.Cloud.PricingMode()
		switch _, priced := x.Price(mode); {
		case !ok: // missing, above
		case !priced && !o.Cloud.PricePerGPUHr.IsSet() && validMode(mode):
			errs = append(errs, scenario.FieldError{Path: "options.cloud.pricing", Problem: fmt.Sprintf("%s has no catalog price for %s", mode, x.ID),
				Allowed: strings.Join(x.Modes(), ", ") + ", or set options.cloud.price_per_gpu_hour"})
		}
	}
	return errs
}

// validMode reports whether mode is a pricing mode (an unknown one is
// scenario.Validate's to report).
func validMode(mode string) bool { return slices.Contains(scenario.PricingModes, mode) }

// evaluated is the outcome of the model on a checked scenario: a figure
// that came out not finite (model.NonFiniteError, a guard the ranges
// should make unreachable) is traced to the field that led there where
// one can be found, and then reported as that field's problem.
func evaluated(s *scenario.Scenario, cat *catalog.Catalog, r *model.Report, err error) (*model.Report, error) {
	var nf *model.NonFiniteError
	if err == nil || !errors.As(err, &nf) {
		return r, err
	}
	if fe, ok := blame(s, cat, nf); ok {
		return nil, scenario.Errors{fe}
	}
	return nil, fmt.Errorf("internal error: %w", err)
}

// blame looks for the one number of s that makes the report non-finite:
// each number in turn is set to a tame value within its range (1, or the
// limit nearest to it); the first whose change gives a finite report is
// named. It runs only on the error path.
func blame(s *scenario.Scenario, cat *catalog.Catalog, nf *model.NonFiniteError) (scenario.FieldError, bool) {
	b, err := json.Marshal(s)
	if err != nil {
		return scenario.FieldError{}, false
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return scenario.FieldError{}, false
	}
	var found scenario.FieldError
	ok := false
	visitNumbers(doc, "", func(path string, set func(any)) bool {
		r, known := scenario.BoundOf(path)
		if !known || path == "schema_version" || path == "seed" {
			return false
		}
		set(tame(r))
		defer set(nil) // restored by the caller's closure; see visitNumbers
		b, err := json.Marshal(doc)
		if err != nil {
			return false
		}
		var t scenario.Scenario
		if json.Unmarshal(b, &t) != nil || scenario.Validate(&t) != nil {
			return false
		}
		if _, err := safeEvaluate(&t, cat); err != nil {
			return false
		}
		found = scenario.FieldError{Path: path, Problem: nonFiniteProblem(path, nf), Allowed: r.String()}
		ok = true
		return true
	})
	return found, ok
}

// nonFiniteProblem says, in the field's and the direction's names, that
// the value of the field at path makes a figure of the report non-finite.
func nonFiniteProblem(path string, nf *model.NonFiniteError) string {
	field := path
	if f, ok := present.Lookup(path); ok {
		field = present.Lower(f.Label)
	}
	where := "the workload summary"
	if nf.Direction != "" {
		where = present.DirectionTitle(nf.Direction)
	}
	return fmt.Sprintf("with this %s, the %s of %s is %v, not a number: hostplan's ranges should have prevented this; please report it",
		field, nf.Figure, where, nf.Value)
}

// tame is a value within r that no figure should choke on: 1 when r
// holds it, else the limit nearest to 1.
func tame(r scenario.Range) float64 {
	switch {
	case r.Contains(1):
		return 1
	case r.Max < 1:
		return r.Max
	case r.MinOpen:
		return r.Min * 2
	}
	return r.Min
}

// visitNumbers calls fn for each number of the decoded JSON v (an
// estimate {low, likely, high} counts as one number), with its path and
// a setter that replaces it; set(nil) puts the original back. It stops
// when fn returns true.
func visitNumbers(v any, path string, fn func(path string, set func(any)) bool) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e := x[k]
			p := k
			if path != "" {
				p = path + "." + k
			}
			if isNumber(e) {
				orig := e
				if fn(p, func(n any) {
					if n == nil {
						n = orig
					}
					x[k] = n
				}) {
					return true
				}
				continue
			}
			if visitNumbers(e, p, fn) {
				return true
			}
		}
	case []any:
		for i, e := range x {
			p := fmt.Sprintf("%s[%d]", path, i)
			if isNumber(e) {
				orig := e
				if fn(p, func(n any) {
					if n == nil {
						n = orig
					}
					x[i] = n
				}) {
					return true
				}
				continue
			}
			if visitNumbers(e, p, fn) {
				return true
			}
		}
	}
	return false
}

// isNumber reports whether decoded JSON v is a number or an estimate.
func isNumber(v any) bool {
	switch x := v.(type) {
	case float64:
		return true
	case map[string]any:
		_, lo := x["low"]
		_, li := x["likely"]
		_, hi := x["high"]
		return len(x) == 3 && lo && li && hi
	}
	return false
}

// safeEvaluate is model.EvaluateValid, for a scenario its caller has
// validated, with a panic turned into an error (the probe tries values no
// user gave).
func safeEvaluate(s *scenario.Scenario, cat *catalog.Catalog) (*model.Report, error) {
	return guarded(model.EvaluateValid, s, cat)
}

// guarded runs evaluate (model.EvaluateValid or model.EvaluateLean) on s
// and cat, a panic in it becoming an internal error.
func guarded(evaluate func(*scenario.Scenario, *catalog.Catalog) (*model.Report, error), s *scenario.Scenario, cat *catalog.Catalog) (r *model.Report, err error) {
	defer func() {
		if v := recover(); v != nil {
			r, err = nil, fmt.Errorf("internal error: %v", v)
		}
	}()
	return evaluate(s, cat)
}
