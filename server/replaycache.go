package server

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// replayCache keeps finished tables' replays encoded, least recently used
// first out, within max bytes; a replay not there is built once however
// many ask for it at the same time.
type replayCache struct {
	max int64

	mu      sync.Mutex
	size    int64
	order   *list.List // of *replayEntry, most recently used first
	entries map[string]*list.Element
	flights map[string]*flight

	built atomic.Int64 // replays built (tests count them)
}

type replayEntry struct {
	key  string
	body []byte
}

// flight is a build under way; waiters read body and err once done closes.
type flight struct {
	done chan struct{}
	body []byte
	err  error
}

func newReplayCache(max int64) *replayCache {
	return &replayCache{max: max, order: list.New(), entries: map[string]*list.Element{}, flights: map[string]*flight{}}
}

// get returns the encoded replay kept under key.
func (c *replayCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*replayEntry).body, true
	}
	return nil, false
}

// put keeps body under key, making room by dropping the least recently
// used; a body larger than the whole cache is not kept.
func (c *replayCache) put(key string, body []byte) {
	n := int64(len(body))
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.size -= int64(len(el.Value.(*replayEntry).body))
		c.order.Remove(el)
	}
	for c.size+n > c.max {
		last := c.order.Back()
		e := last.Value.(*replayEntry)
		c.order.Remove(last)
		delete(c.entries, e.key)
		c.size -= int64(len(e.body))
	}
	c.entries[key] = c.order.PushFront(&replayEntry{key: key, body: body})
	c.size += n
}

// bytes is the size of what is kept.
func (c *replayCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// do returns the replay kept under key, or builds it: one caller builds,
// those who ask meanwhile wait for its answer. A build refused for its
// caller (a *refusal: that caller's address is busy) or cut short by it
// (its request ended) is not the others' answer: each of them tries in
// turn.
func (c *replayCache) do(ctx context.Context, key string, build func() ([]byte, error)) ([]byte, error) {
	for {
		if body, ok := c.get(key); ok {
			return body, nil
		}
		c.mu.Lock()
		f, waiting := c.flights[key]
		if !waiting {
			f = &flight{done: make(chan struct{})}
			c.flights[key] = f
		}
		c.mu.Unlock()
		if !waiting {
			f.body, f.err = build()
			if f.err == nil {
				c.built.Add(1)
				c.put(key, f.body)
			}
			c.mu.Lock()
			delete(c.flights, key)
			c.mu.Unlock()
			close(f.done)
			return f.body, f.err
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		var ref *refusal
		if !errors.As(f.err, &ref) && !errors.Is(f.err, context.Canceled) && !errors.Is(f.err, context.DeadlineExceeded) {
			return f.body, f.err
		}
	}
}
