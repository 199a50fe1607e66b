package app

import (
	"context"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// begin is where every evaluation starts: it returns ctx's error if ctx has
// already ended, and otherwise the catalog in use.
func (p *Planner) begin(ctx context.Context) (*catalog.Catalog, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.Catalog()
}

// Evaluate runs the model on s with the catalog in use: the deterministic
// report, without the Monte Carlo spread. An invalid s, or one that names
// what the catalog lacks, comes back as scenario.Errors with every problem
// Check finds.
func (p *Planner) Evaluate(ctx context.Context, s *scenario.Scenario) (*model.Report, error) {
	cat, err := p.checked(ctx, s)
	if err != nil {
		return nil, err
	}
	r, err := model.EvaluateValid(s, cat)
	return evaluated(s, cat, r, err)
}

// Analyze is Evaluate plus the Monte Carlo spread over draws draws and the
// tornado; draws 0 skips them. model.DefaultDraws draws take some tens of
// milliseconds, a million some seconds.
func (p *Planner) Analyze(ctx context.Context, s *scenario.Scenario, draws int) (*model.Report, error) {
	if draws == 0 {
		return p.Evaluate(ctx, s)
	}
	cat, err := p.checked(ctx, s)
	if err != nil {
		return nil, err
	}
	r, err := model.AnalyzeValid(ctx, s, cat, draws)
	return evaluated(s, cat, r, err)
}
