// Package all registers every dicehall game. Clients import it for the
// registry; the games themselves never import a client.
package all

import (
	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/bookworm/words"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
	"github.com/dicehall/dicehall/games/dicestars"
)

// Registry holds every game.
var Registry = func() *engine.Registry {
	r := &engine.Registry{}
	r.Register(dicestars.Game{})
	r.Register(bookworm.Game{Deck: words.Deck(), Lexicon: words.Default()})
	r.Register(diceflick.Game{Sim: diceflick.ArenaSim(&physics.DefaultArena)})
	return r
}()
