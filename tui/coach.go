package tui

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
)

// The coach at the table, for games that judge decisions (engine.Analyst):
// a hint in a game with one person at the keyboard, and the review of the
// game once it is over. Both think off the UI loop.

// hintState is a hint asked for the game version gen: waiting, or its
// answer.
type hintState struct {
	gen     int
	seat    engine.Seat
	waiting bool
	j       engine.Judgement
}

// hintAnswer is the coach's answer to a hint asked at gen.
type hintAnswer struct {
	gen int
	j   engine.Judgement
	err error
}

// analyst reports whether the game judges decisions.
func (s *Shell) analyst() bool { return engine.Reviewable(s.cfg.Game) }

// CanReview reports whether the game over screen offers a review (boards
// list the key with their end keys).
func (s *Shell) CanReview() bool { return s.analyst() }

// hintKey reports whether key asks for a hint: f2, or h when the board
// does not take letters.
func (s *Shell) hintKey(key string) bool {
	if key == "f2" {
		return true
	}
	t, ok := s.board.(Typist)
	return key == "h" && (!ok || !t.Typing())
}

// askHint asks the coach what the person at the keyboard should do now,
// off the UI loop; asked again while shown, it hides the hint.
func (s *Shell) askHint() {
	switch people := s.People(); {
	case s.hint != nil && s.hint.gen == s.gen:
		s.hint = nil
		return
	case !s.analyst():
		s.Say(s.info.Title + " gives no hints yet")
		return
	case len(people) != 1:
		s.Say("hints are for a game with one person at the table, the others bots")
		return
	case !s.table.State.Turn().Has(people[0]):
		s.Say("a hint is for your turn: it comes soon")
		return
	}
	seat := s.People()[0]
	s.hint = &hintState{gen: s.gen, seat: seat, waiting: true}
	// A copy of the state: the table moves on while the coach thinks.
	st, g, gen := s.table.State.Clone(), s.cfg.Game, s.gen
	o := engine.JudgeOptions{Seed: engine.SplitSeed(s.cfg.Seed, uint64(len(s.table.Record.Moves)))}
	s.later(func() tea.Msg {
		j, err := engine.Hint(g, st, seat, o)
		return hintAnswer{gen: gen, j: j, err: err}
	})
}

// hinted takes the coach's answer, unless the game moved on meanwhile.
func (s *Shell) hinted(msg hintAnswer) {
	if s.hint == nil || msg.gen != s.hint.gen || msg.gen != s.gen {
		return
	}
	switch {
	case errors.Is(msg.err, engine.ErrForced):
		s.hint = nil
		s.Say("nothing to decide here: only one choice makes sense")
	case msg.err != nil:
		s.hint = nil
		s.Refuse(msg.err)
	default:
		s.hint.waiting, s.hint.j = false, msg.j
	}
}

// hintLines are the hint in view: the best choice in the game's words and
// the coach's reasons, w columns wide.
func (s *Shell) hintLines(w int) []string {
	h := s.hint
	if h == nil || h.waiting || h.gen != s.gen {
		return nil
	}
	again := "h again hides it"
	if t, ok := s.board.(Typist); ok && t.Typing() {
		again = "f2 again hides it" // h is a letter now
	}
	lines := []string{ruleLine(styleFaint.Render("──")+" "+styleYellowB.Render("hint for "+s.Name(int(h.seat))),
		styleFaint.Render(again), w)}
	best := choiceText(s.info, h.j.Best)
	if h.j.Best.Win >= 0 {
		best += styleFaint.Render(" (" + pct(h.j.Best.Win) + " to win)")
	}
	lines = append(lines, wrapLead("best", best, w)...)
	for i, n := range h.j.Notes {
		label := ""
		if i == 0 {
			label = "why"
		}
		lines = append(lines, wrapLead(label, "• "+engine.Render(s.info.Messages, n), w)...)
	}
	return lines
}

// overlay puts box over the bottom of screen (a w×h rendering), just
// above its last line (the keys), leaving at least keep lines on top.
func overlay(screen string, box []string, keep int) string {
	lines := strings.Split(screen, "\n")
	room := len(lines) - 1 - keep
	if room <= 0 || len(box) == 0 {
		return screen
	}
	if len(box) > room {
		box = append(box[:room-1], styleFaint.Render("        …"))
	}
	copy(lines[len(lines)-1-len(box):], box)
	return strings.Join(lines, "\n")
}

// reviewJob is the review of the game being computed: its progress, and
// how to stop it.
type reviewJob struct {
	cancel      context.CancelFunc
	done, total atomic.Int64
}

// reviewDone is a review computed (or stopped, or failed).
type reviewDone struct {
	job *reviewJob
	rv  *engine.Review
	err error
}

// status says how far the review is.
func (j *reviewJob) status() string {
	if t := j.total.Load(); t > 0 {
		return fmt.Sprintf("reviewing every decision: %d of %d judged · esc stops", j.done.Load(), t)
	}
	return "reviewing the game… esc stops"
}

// startReview shows the review of the game over: computed once, in the
// background on every core, its progress in the message line.
func (s *Shell) startReview() {
	switch {
	case !s.analyst():
		s.Say(s.info.Title + " has no review yet")
		return
	case s.reviewed != nil:
		s.review = s.reviewed
		return
	case s.reviewJob != nil:
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &reviewJob{cancel: cancel}
	s.reviewJob = job
	g, rec := s.cfg.Game, s.table.Record
	rec.Moves = append([]engine.LoggedMove(nil), rec.Moves...)
	o := engine.ReviewOptions{Seed: s.cfg.Seed, Workers: runtime.NumCPU(), Progress: func(done, total int) {
		job.total.Store(int64(total))
		job.done.Store(int64(done))
	}}
	s.later(func() tea.Msg {
		rv, err := engine.ReviewRecord(ctx, g, rec, o)
		return reviewDone{job: job, rv: rv, err: err}
	})
}

// stopReview stops the review being computed.
func (s *Shell) stopReview() {
	s.reviewJob.cancel()
	s.reviewJob = nil
	s.Say("review stopped: r starts it again")
}

// reviewReady shows a computed review.
func (s *Shell) reviewReady(msg reviewDone) {
	if msg.job != s.reviewJob {
		return // stopped meanwhile
	}
	s.reviewJob = nil
	msg.job.cancel()
	if msg.err != nil {
		s.Fail("the review failed: " + msg.err.Error())
		return
	}
	r, err := newReviewScreen(s.cfg.Game, s.table.Record, msg.rv)
	if err != nil {
		s.Fail("the review failed: " + err.Error())
		return
	}
	s.reviewed, s.review = r, r
	s.Say("")
}

// reviewKey is a key while the review is shown.
func (s *Shell) reviewKey(key string) {
	_, h := s.size()
	switch s.review.key(key, h) {
	case reviewBack:
		s.review = nil
	case reviewQuits:
		s.quitNow()
	}
}

// coachHelp are the help lines of the coach's keys, for games that have one.
func (s *Shell) coachHelp() []string {
	if !s.analyst() {
		return nil
	}
	return []string{
		"h f2    a hint: what the coach would play now, and why (one person",
		"        against bots; h is a letter while you type a word: f2 then)",
		"r       after the game: review every decision (then ? for its keys)",
	}
}
