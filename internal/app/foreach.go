package app

import (
	"context"
	"runtime"
	"sync"
)

// ForEach runs f(0) … f(n−1) on every core, each index once, and waits
// for them. Once ctx ends no further index is started, and ForEach returns
// ctx's error after the running ones finish; the caller keeps each
// answer at its index, so results stay in order. Reprice and the import
// of many files evaluate with it.
func ForEach(ctx context.Context, n int, f func(i int)) error {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	var stopped error
	for i := range n {
		if stopped = ctx.Err(); stopped != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return stopped
}
