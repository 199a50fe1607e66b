package app

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// ForEach runs f(0) … f(n−1) on every core, each index once, and waits
// for them. Once ctx ends no further index is started, and ForEach returns
// ctx's error after the running ones finish; the caller keeps each
// answer at its index, so results stay in order. Reprice and the import
// of many files evaluate with it.
//
// Each worker takes the next index from a shared counter: handing the
// indices over a channel parked and woke a goroutine for each (tens of
// thousands of futex and nanosleep calls in a reprice of 10,000).
func ForEach(ctx context.Context, n int, f func(i int)) error {
	var (
		next    atomic.Int64
		stopped atomic.Pointer[error]
		wg      sync.WaitGroup
	)
	for range min(n, max(1, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					stopped.CompareAndSwap(nil, &err)
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	if err := stopped.Load(); err != nil {
		return *err
	}
	return nil
}
