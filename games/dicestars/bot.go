package dicestars

import (
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Bot chooses moves for one seat of Dice Stars.
//
// Decide receives the seat's public state (View.State): in Dice Stars that is
// everything a person at the table sees — sheets, reserve, bag and discard
// counts — and nothing more: which dice come out of the bag next is not in
// it, it is drawn only when the dice are drawn. Decide is called only when
// the bot's seat is to act (PhaseDraw or PhaseTake) and must return one of
// s.LegalActions. A bot may keep its own seeded generator; it must not use
// the table's chance source.
type Bot interface {
	Name() string
	Decide(s *State) Action
}

// BotKinds lists the bots, weakest first.
var BotKinds = info.BotKinds()

// botMakers builds bots by kind; each bot file adds itself here.
var botMakers = map[string]func(seed uint64) Bot{
	"random": func(seed uint64) Bot { return &RandomBot{rng: engine.NewSource(seed)} },
}

// NewBot returns a bot of the given kind, seeded.
func NewBot(kind string, seed uint64) (Bot, error) {
	mk, ok := botMakers[strings.ToLower(kind)]
	if !ok {
		return nil, fmt.Errorf("unknown dice stars bot %q (have %s)", kind, strings.Join(BotKinds, ", "))
	}
	return mk(seed), nil
}

// RandomBot plays a uniformly random legal action.
type RandomBot struct {
	rng engine.Source
	buf []Action
}

func (b *RandomBot) Name() string { return "random" }

func (b *RandomBot) Decide(s *State) Action {
	b.buf = s.LegalActions(b.buf)
	return b.buf[b.rng.IntN(len(b.buf))]
}

// Controller adapts a Bot to engine.Controller, for clients that drive any
// game through the engine interfaces.
type Controller struct{ Bot Bot }

func (c Controller) Name() string { return c.Bot.Name() }

// Choose decides from the seat's view.
func (c Controller) Choose(view any, _ []engine.Action) (engine.Action, error) {
	v, ok := view.(*View)
	if !ok {
		return nil, fmt.Errorf("dice stars bot: got a %T view", view)
	}
	if v.State.Phase != PhaseDraw && v.State.Phase != PhaseTake {
		return nil, fmt.Errorf("dice stars bot: nothing to decide in phase %v", v.State.Phase)
	}
	return c.Bot.Decide(&v.State), nil
}

// NewBot returns a bot as an engine.Controller (engine.BotProvider).
func (Game) NewBot(kind string, seed uint64) (engine.Controller, error) {
	b, err := NewBot(kind, seed)
	if err != nil {
		return nil, err
	}
	return Controller{Bot: b}, nil
}

var _ engine.BotProvider = Game{}
