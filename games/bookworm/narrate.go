package bookworm

import (
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Narrate puts a Bookworm event into catalogue messages (the English
// sentences are in messages.json). Faces are passed as their labels and lists
// pre-joined: a client cannot translate them anyway.
func (Game) Narrate(e engine.Event, players []string) []engine.Message {
	// who names a seat; a move of no player (a timeout) is the table's.
	who := func(s engine.Seat) string {
		if s >= 0 && int(s) < len(players) {
			return players[s]
		}
		return "the table"
	}
	msg := func(key string, args map[string]any) []engine.Message {
		return []engine.Message{{Key: key, Args: args}}
	}
	switch d := e.Data.(type) {
	case CardEvent:
		names := make([]string, len(d.Card.Categories))
		for i, c := range d.Card.Categories {
			names[i] = c.Name
		}
		return msg("bookworm.card", map[string]any{"categories": strings.Join(names, " / ")})
	case CategoryEvent:
		return msg("bookworm.category", map[string]any{"who": who(e.Seat), "category": d.Category.Name, "level": d.Category.Level.String()})
	case RollEvent:
		faces := make([]string, len(d.Faces))
		for i, f := range d.Faces {
			faces[i] = FaceLabel(f)
		}
		return msg("bookworm.roll", map[string]any{"faces": strings.Join(faces, " ")})
	case SpecialEvent:
		return msg("bookworm.special", map[string]any{"who": who(e.Seat), "face": FaceLabel(d.Face)})
	case WordEvent:
		return msg("bookworm.word", map[string]any{"who": who(e.Seat), "word": d.Word, "die": d.Die, "letter": d.Letter})
	case WindowEvent:
		if d.Known {
			return msg("bookworm.challenge-window.known", nil)
		}
		return msg("bookworm.challenge-window", nil)
	case ChallengeEvent:
		return msg("bookworm.challenge", map[string]any{"who": who(e.Seat), "word": d.Word})
	case VoteEvent:
		if d.Accept {
			return msg("bookworm.vote.accept", map[string]any{"who": who(e.Seat)})
		}
		return msg("bookworm.vote.reject", map[string]any{"who": who(e.Seat)})
	case VerdictEvent:
		args := map[string]any{"word": d.Word, "accept": d.Accept, "reject": d.Reject, "abstain": d.Abstain}
		if d.Accepted {
			return msg("bookworm.verdict.accepted", args)
		}
		return msg("bookworm.verdict.rejected", args)
	case TakeEvent:
		args := map[string]any{"who": who(engine.Seat(d.To)), "die": d.Die, "face": FaceLabel(d.Face)}
		switch {
		case e.Kind == "question":
			return msg("bookworm.question", args)
		case d.Bonus:
			return msg("bookworm.bonus", args)
		case e.Kind == "steal":
			args["from"] = who(engine.Seat(d.From))
			return msg("bookworm.steal", args)
		}
		return msg("bookworm.take", args)
	case TimeoutEvent:
		// A name timeout is told by the fail that follows it.
		switch d.Phase {
		case "challenge":
			return msg("bookworm.timeout.challenge", nil)
		case "vote":
			return msg("bookworm.timeout.vote", nil)
		}
		return nil
	case FailEvent:
		if d.Reason == "gave-up" {
			return msg("bookworm.fail.gave-up", map[string]any{"who": who(engine.Seat(d.Seat))})
		}
		return msg("bookworm.fail.timeout", map[string]any{"who": who(engine.Seat(d.Seat))})
	case RoundEndEvent:
		parts := make([]string, len(d.Scores))
		for i, sc := range d.Scores {
			parts[i] = fmt.Sprintf("%s %+d", who(engine.Seat(i)), sc.Total)
		}
		return msg("bookworm.round-end", map[string]any{"round": d.Round, "scores": strings.Join(parts, ", ")})
	case RoundEvent:
		return msg("bookworm.round", map[string]any{"round": d.Round, "who": who(engine.Seat(d.Bookworm))})
	case GameOverEvent:
		w := make([]string, len(d.Winners))
		for i, p := range d.Winners {
			w[i] = who(engine.Seat(p))
		}
		if len(w) == 1 {
			return msg("bookworm.over.winner", map[string]any{"who": w[0]})
		}
		return msg("bookworm.over.winners", map[string]any{"who": strings.Join(w, " and ")})
	case TurnEvent:
		// The board shows whose turn it is; a line per turn is noise.
		return nil
	}
	switch e.Kind {
	case "allow":
		return msg("bookworm.allow", map[string]any{"who": who(e.Seat)})
	case "reshuffle":
		return msg("bookworm.reshuffle", nil)
	}
	// An event this file does not know: the engine's plain fallback.
	return engine.Narrate(nil, e, players)
}

// FaceLabel is how a die face is written for people: letters as they are,
// the Special die's faces by their printed names.
func FaceLabel(face string) string {
	switch face {
	case "a-z":
		return "A–Z"
	case "not":
		return "NOT"
	case "dots":
		return "••"
	case "stack":
		return "STACK"
	case "turn":
		return "TURN"
	}
	return face
}
