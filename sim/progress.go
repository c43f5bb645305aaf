package sim

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"
)

// clearLine erases the rest of the terminal line: a redrawn bar shorter
// than the last one ("eta 8s" after "eta 10s") leaves nothing behind.
const clearLine = "\x1b[K"

// Progress reports how far a run is: a bar redrawn in place on a terminal,
// or an slog line every few seconds when the output is a file or a pipe
// (where a bar would fill the log with carriage returns).
type Progress struct {
	w        io.Writer
	tty      bool
	total    int
	start    time.Time
	last     time.Time
	every    time.Duration
	log      *slog.Logger
	lastDone int
}

// NewProgress reports on w (a bar when tty) or, when not tty, through log
// at most once per every.
func NewProgress(w io.Writer, tty bool, total int, log *slog.Logger, every time.Duration) *Progress {
	now := time.Now()
	return &Progress{w: w, tty: tty, total: total, start: now, last: now, every: every, log: log}
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Update records that done games are finished.
func (p *Progress) Update(done int) {
	now := time.Now()
	p.lastDone = done
	if p.tty {
		// Redrawing more than ~20 times a second only costs time.
		if done < p.total && now.Sub(p.last) < 50*time.Millisecond {
			return
		}
		p.last = now
		fmt.Fprintf(p.w, "\r%s%s", Bar(done, p.total, 30, now.Sub(p.start)), clearLine)
		return
	}
	if done < p.total && now.Sub(p.last) >= p.every {
		p.last = now
		p.log.Info("simulating", "done", done, "of", p.total, "elapsed", now.Sub(p.start).Round(time.Second), "eta", eta(done, p.total, now.Sub(p.start)))
	}
}

// Finish ends the report (a newline after the bar).
func (p *Progress) Finish() {
	if p.tty {
		fmt.Fprintf(p.w, "\r%s%s\n", Bar(p.lastDone, p.total, 30, time.Since(p.start)), clearLine)
		return
	}
	p.log.Info("simulation finished", "games", p.lastDone, "elapsed", time.Since(p.start).Round(time.Millisecond))
}

// Bar draws a text progress bar of the given width with counts and an
// estimate of the time left.
func Bar(done, total, width int, elapsed time.Duration) string {
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	full := int(frac * float64(width))
	return fmt.Sprintf("[%s%s] %d/%d %5.1f%% eta %s", strings.Repeat("#", full), strings.Repeat(".", width-full),
		done, total, 100*frac, eta(done, total, elapsed))
}

func eta(done, total int, elapsed time.Duration) time.Duration {
	if done == 0 {
		return 0
	}
	return (elapsed * time.Duration(total-done) / time.Duration(done)).Round(time.Second)
}
