package ui

import "fmt"

// reportCache keeps the evaluations of the stored revisions the window has
// shown, by scenario id and revision number, so that returning to a
// scenario shows its report at once instead of evaluating it again. A
// revision never changes, so an entry stays right until the catalog in use
// does (forget). The least recently shown entries go first once it holds
// limit.
type reportCache struct {
	limit   int
	entries map[string]*evaluation
	order   []string // keys, least recently used first
}

// reportCacheSize bounds the cache: a report with its Monte Carlo summary,
// curves and brief is some hundreds of kilobytes.
const reportCacheSize = 48

func newReportCache(limit int) *reportCache {
	return &reportCache{limit: limit, entries: map[string]*evaluation{}}
}

func cacheKey(id string, rev int) string { return fmt.Sprintf("%s@%d", id, rev) }

// get returns the evaluation of revision rev of scenario id, nil when the
// cache has none. Revision 0 (not stored) is never cached.
func (c *reportCache) get(id string, rev int) *evaluation {
	if rev <= 0 {
		return nil
	}
	k := cacheKey(id, rev)
	ev := c.entries[k]
	if ev != nil {
		c.touch(k)
	}
	return ev
}

// put keeps ev under its item's id and revision.
func (c *reportCache) put(ev *evaluation) {
	if ev == nil || ev.item.ID == "" || ev.item.Revisions <= 0 {
		return
	}
	k := cacheKey(ev.item.ID, ev.item.Revisions)
	if _, ok := c.entries[k]; !ok && len(c.order) >= c.limit {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[k] = ev
	c.touch(k)
}

func (c *reportCache) touch(k string) {
	for i, o := range c.order {
		if o == k {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.order = append(c.order, k)
}
