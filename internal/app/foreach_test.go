package app

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestForEachRunsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000} {
		seen := make([]atomic.Int32, n)
		if err := ForEach(context.Background(), n, func(i int) { seen[i].Add(1) }); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, c)
			}
		}
	}
}

func TestForEachStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := ForEach(ctx, 10000, func(i int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if r := ran.Load(); r >= 10000 || r < 10 {
		t.Fatalf("%d of 10000 ran after the cancel at 10", r)
	}
}
