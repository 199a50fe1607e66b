package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/scenario"
)

// fakeLibrary is the fake backend with n scenarios s0000, s0001, … in
// that order: every third recommends cloud, the next managed, the next
// nothing.
func fakeLibrary(n int) *fakeBackend {
	b := newFakeBackend()
	b.items = nil
	b.recs = map[string]Recommendation{}
	for i := range n {
		id := fmt.Sprintf("s%04d", i)
		b.items = append(b.items, Item{ID: id, Name: "Scenario " + id, Shape: scenario.ShapeTraining, Revisions: 1})
		switch i % 3 {
		case 0:
			b.recs[id] = Recommendation{Direction: scenario.Cloud}
		case 1:
			b.recs[id] = Recommendation{Direction: scenario.Managed}
		default:
			b.recs[id] = Recommendation{}
		}
	}
	return b
}

// cloudIDs are the ids of fakeLibrary(n) that recommend cloud.
func cloudIDs(n int) []string {
	var ids []string
	for i := 0; i < n; i += 3 {
		ids = append(ids, fmt.Sprintf("s%04d", i))
	}
	return ids
}

// calls returns what b's Recommendations was asked, call by call.
func (f *fakeBackend) calls() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.recCalls)
}

// filterCloud opens a window on a library of n scenarios, lets it settle,
// and filters it to those that recommend cloud: the backend's calls the
// filter made, and how many scenarios were asked for before it.
func filterCloud(t *testing.T, n int) (p *planner, calls [][]string, asked int) {
	t.Helper()
	b := fakeLibrary(n)
	_, p = openWindow(t, b)
	settle(t, p)
	before := b.calls()
	for _, c := range before {
		asked += len(c)
	}
	p.scenarios.recommend.SetSelected(recommendOption(scenario.Cloud))
	settle(t, p)
	return p, b.calls()[len(before):], asked
}

// The Recommended filter asks the backend once for every scenario not
// decided yet (a batch), not once per scenario.
func TestRecommendedFilterAsksOnce(t *testing.T) {
	const n = 400 // fewer than the first batch
	p, calls, asked := filterCloud(t, n)
	if len(calls) != 1 || len(calls[0]) != n-asked {
		sizes := make([]int, len(calls))
		for i, c := range calls {
			sizes[i] = len(c)
		}
		t.Fatalf("the filter asked %d times, for %v scenarios; want once, for the %d not decided yet", len(calls), sizes, n-asked)
	}
	if got, want := shownIDs(p), cloudIDs(n); !slices.Equal(got, want) {
		t.Errorf("the list shows %d rows, want the %d that recommend cloud", len(got), len(want))
	}
	if got := p.scenarios.status.Text; strings.Contains(got, "deciding") || strings.Contains(got, notDecided) {
		t.Errorf("status %q once all are decided", got)
	}
}

// Tens of thousands of scenarios take a few batches, each one call of at
// most recMaxBatch.
func TestRecommendedFilterBatches(t *testing.T) {
	const n = 12_000
	p, calls, asked := filterCloud(t, n)
	for _, c := range calls {
		asked += len(c)
		if len(c) > recMaxBatch {
			t.Errorf("a batch of %d", len(c))
		}
	}
	// The fake answers in microseconds, so the batches are the largest:
	// two (a slow machine may take a few more).
	if asked != n || len(calls) < (n+recMaxBatch-1)/recMaxBatch || len(calls) > 6 {
		t.Errorf("%d calls asked for %d of %d scenarios", len(calls), asked, n)
	}
	if got := shownIDs(p); len(got) != len(cloudIDs(n)) {
		t.Errorf("the list shows %d rows, want %d", len(got), len(cloudIDs(n)))
	}
}

// While the filter waits for decisions, rows are only added below those
// shown: a scenario far down decided early waits for the ones above it,
// so no row moves under the pointer.
func TestRecommendedFilterGrowsAtTheBottom(t *testing.T) {
	const n = 60
	b := fakeLibrary(n)
	_, p := openWindow(t, b)
	settle(t, p)
	s := p.scenarios
	s.recs.want([]Item{s.all[45]}, true) // cloud, decided before the rows above it
	settle(t, p)
	s.recs.maxSize = 7
	seen := [][]string{}
	update := s.recs.onUpdate
	s.recs.onUpdate = func() {
		update()
		seen = append(seen, shownIDs(p))
	}
	s.recommend.SetSelected(recommendOption(scenario.Cloud))
	seen = append(seen, shownIDs(p))
	settle(t, p)
	if len(seen) < 3 {
		t.Fatalf("the filter answered in %d steps; the test needs batches of 7", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if prev := seen[i-1]; len(seen[i]) < len(prev) || !slices.Equal(seen[i][:len(prev)], prev) {
			t.Fatalf("step %d shows %v after %v: a row moved", i, seen[i], prev)
		}
	}
	if got := seen[len(seen)-1]; !slices.Equal(got, cloudIDs(n)) {
		t.Errorf("the list ends with %v, want %v", got, cloudIDs(n))
	}
}

// A scenario that could not be decided shows as such: its row says "not
// decided", the pointer over it gives the reason, the filter leaves it
// out and counts it.
func TestRecommendedFilterShowsNotDecided(t *testing.T) {
	b := fakeLibrary(6)
	const why = `workload.model.preset: unknown model "llama-9" (allowed: a model id of the catalog)`
	b.recs["s0003"] = Recommendation{Problem: why}
	_, p := openWindow(t, b)
	s := p.scenarios
	s.recommend.SetSelected(recommendOption(scenario.Cloud))
	settle(t, p)
	if got, want := shownIDs(p), []string{"s0000"}; !slices.Equal(got, want) {
		t.Errorf("cloud shows %v, want %v", got, want)
	}
	if got := s.status.Text; !strings.Contains(got, "1 "+notDecided) {
		t.Errorf("status %q does not count the scenario not decided", got)
	}
	s.recommend.SetSelected(anyRecommend)
	i := slices.Index(shownIDs(p), "s0003")
	if i < 0 {
		t.Fatal("s0003 is not listed")
	}
	if got := s.detail(s.items[i]); !strings.Contains(got, notDecided) {
		t.Errorf("row detail %q", got)
	}
	s.hovered(i)
	if got := s.status.Text; !strings.Contains(got, why) {
		t.Errorf("status over the row %q does not say why", got)
	}
}

// A backend call that fails leaves every scenario of its batch not
// decided, with the failure as the reason.
func TestRecommendedFilterBackendFails(t *testing.T) {
	b := fakeLibrary(6)
	b.recErr = errors.New("the catalog could not be read")
	_, p := openWindow(t, b)
	s := p.scenarios
	s.recommend.SetSelected(recommendOption(scenario.Managed))
	settle(t, p)
	if got := shownIDs(p); len(got) != 0 {
		t.Errorf("shows %v", got)
	}
	if got := s.status.Text; !strings.Contains(got, "6 "+notDecided) {
		t.Errorf("status %q", got)
	}
	s.recommend.SetSelected(anyRecommend)
	s.hovered(0)
	if got := s.status.Text; !strings.Contains(got, notDecided) || !strings.Contains(got, "the catalog could not be read") {
		t.Errorf("status over a row %q", got)
	}
}

// Once the window closes nothing more is decided.
func TestRecommendationsStopWithTheWindow(t *testing.T) {
	b := fakeLibrary(100)
	w := NewWindow(test.NewTempApp(t), b) // closed here, not by openWindow's cleanup
	p := w.Content().(*planner)
	settle(t, p)
	before := len(b.calls())
	w.Close()
	p.scenarios.recs.want(p.scenarios.all, false)
	settle(t, p)
	if after := len(b.calls()); after != before {
		t.Errorf("%d calls after the window closed", after-before)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if done := decideBatch(ctx, b, b.items[:3]); len(done) != 0 {
		t.Errorf("a batch whose context ended decided %d", len(done))
	}
}

// A batch is four times the last, or as large as takes recBatchTime at
// the last one's pace.
func TestNextBatch(t *testing.T) {
	for _, c := range []struct {
		n    int
		took time.Duration
		want int
	}{
		{500, 25 * time.Millisecond, 5000},
		{500, 500 * time.Millisecond, 2000},
		{500, 5 * time.Second, 2000},
		{500, 0, recMaxBatch},
		{500, time.Millisecond, recMaxBatch},
		{4000, time.Second, recMaxBatch},
		{2000, 4 * time.Second, 8000},
		{10, 10 * time.Second, recMinBatch},
	} {
		if got := nextBatch(c.n, c.took); got != c.want {
			t.Errorf("nextBatch(%d, %v) = %d, want %d", c.n, c.took, got, c.want)
		}
	}
}
