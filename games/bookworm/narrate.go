package bookworm

import (
	"fmt"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// Narrate puts a Bookworm event into catalogue messages (the English
// sentences are in messages.json). Faces are passed as the game's words (the
// catalogue's "bookworm.face.<face>" names the Special die's), categories in
// every language and lists as lists, so each language puts them into its
// words (engine.Render).
func (Game) Narrate(e engine.Event, players []string) []engine.Message {
	// who names a seat; a move of no player (a timeout) is the table's.
	who := func(s engine.Seat) any {
		if s >= 0 && int(s) < len(players) {
			return players[s]
		}
		return engine.Message{Key: "bookworm.table"}
	}
	msg := func(key string, args map[string]any) []engine.Message {
		return []engine.Message{{Key: key, Args: args}}
	}
	switch d := e.Data.(type) {
	case CardEvent:
		names := make([]engine.Message, len(d.Card.Categories))
		for i, c := range d.Card.Categories {
			names[i] = engine.Message{Key: "bookworm.quoted", Args: map[string]any{"name": categoryWords(c)}}
		}
		return msg("bookworm.card", map[string]any{"categories": names})
	case CategoryEvent:
		return msg("bookworm.category", map[string]any{"who": who(e.Seat), "category": categoryWords(d.Category), "level": d.Category.Level.String()})
	case RollEvent:
		return msg("bookworm.roll", map[string]any{"faces": d.Faces})
	case SpecialEvent:
		return msg("bookworm.special", map[string]any{"who": who(e.Seat), "face": d.Face})
	case WordEvent:
		return msg("bookworm.word", map[string]any{"who": who(e.Seat), "word": d.Word, "letter": d.Letter})
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
		args := map[string]any{"who": who(engine.Seat(d.To)), "face": d.Face}
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
		parts := make([]engine.Message, len(d.Scores))
		for i, sc := range d.Scores {
			parts[i] = engine.Message{Key: "bookworm.score", Args: map[string]any{"who": who(engine.Seat(i)), "points": fmt.Sprintf("%+d", sc.Total)}}
		}
		return msg("bookworm.round-end", map[string]any{"round": d.Round, "scores": parts})
	case RoundEvent:
		return msg("bookworm.round", map[string]any{"round": d.Round, "who": who(engine.Seat(d.Bookworm))})
	case GameOverEvent:
		w := make([]any, len(d.Winners))
		for i, p := range d.Winners {
			w[i] = who(engine.Seat(p))
		}
		if len(w) == 1 {
			return msg("bookworm.over.winner", map[string]any{"who": w[0]})
		}
		return msg("bookworm.over.winners", map[string]any{"who": w})
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

// categoryWords is a category's name in every language the game knows it
// in (its own name where none does, as English).
func categoryWords(c words.Category) map[string]string {
	out := map[string]string{"en": c.Name}
	for l, names := range categoryNames() {
		if n := names[c.ID]; n != "" {
			out[l] = n
		}
	}
	return out
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
