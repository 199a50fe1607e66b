package cli

import (
	"fmt"
	"os"
	"sync"
	"time"

	"hostplan/internal/present/num"
)

// progress returns what a long command tells as it goes — "verb 2,345 of
// 10,006…" on stderr, one line written over — when stderr is a terminal
// and the command was not asked to be quiet; nil otherwise (a script's
// stderr gets no progress). The line is cleared when the last is done.
// It may be called from several goroutines.
func (e *env) progress(verb string) func(done, total int) {
	if e.quiet || !isTerminal(e.stderr) {
		return nil
	}
	var (
		mu   sync.Mutex
		last time.Time
	)
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done >= total {
			fmt.Fprint(e.stderr, "\r\x1b[K")
			return
		}
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			fmt.Fprintf(e.stderr, "\r\x1b[K%s %s of %s…", verb, num.Whole(float64(done)), num.Whole(float64(total)))
		}
	}
}

// progressEvery is how often the progress line is written at most.
const progressEvery = 100 * time.Millisecond

// isTerminal reports whether w is a terminal (a character device).
var isTerminal = func(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
