package app

import (
	"context"
	"errors"
	"testing"

	"hostplan/internal/decide"
	"hostplan/internal/store"
)

// Recommend gives the decision's first-ranked direction of the current
// revision, and the revision it decided.
func TestRecommend(t *testing.T) {
	p := openTemp(t)
	ctx := context.Background()
	items, err := p.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		s, _, _ := p.Load(it.ID)
		r, err := p.Evaluate(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decide.Decide(s, r)
		if err != nil {
			t.Fatal(err)
		}
		rev, dir, err := p.Recommend(ctx, it.ID)
		if err != nil || rev != it.Revisions || dir != d.Recommendation {
			t.Errorf("%s: revision %d, %q, %v; want %d, %q", it.ID, rev, dir, err, it.Revisions, d.Recommendation)
		}
	}
	if _, _, err := p.Recommend(ctx, "no-such-scenario"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}
