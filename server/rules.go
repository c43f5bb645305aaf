package server

import (
	"net/http"
	"slices"

	"github.com/dicehall/dicehall/engine"
)

// rulesAnswer is GET /api/games/{id}/rules: a game's rules for people in
// one language (engine.Rulebook), parsed, with the examples the text draws
// as views the game's own renderer takes.
type rulesAnswer struct {
	Title    string                  `json:"title"`
	Lang     string                  `json:"lang"`
	Text     string                  `json:"text"`
	Blocks   []engine.RulesBlock     `json:"blocks"`
	Examples map[string]rulesExample `json:"examples"`
}

// rulesExample is one example: the view of Seat in the example's game.
type rulesExample struct {
	View    any         `json:"view"`
	Seat    engine.Seat `json:"seat"`
	Players []string    `json:"players"`
}

// rulebook finds the rulebook of the game the path names.
func (s *Server) rulebook(r *http.Request) (engine.Game, engine.Rulebook, bool) {
	g, ok := s.games.Lookup(r.PathValue("id"))
	if !ok {
		return nil, nil, false
	}
	book, ok := g.(engine.Rulebook)
	return g, book, ok
}

func (s *Server) getRules(w http.ResponseWriter, r *http.Request) {
	g, book, ok := s.rulebook(r)
	if !ok {
		writeError(w, http.StatusNotFound, "not-found", "no rules for that game")
		return
	}
	lang := r.URL.Query().Get("lang")
	if lang == "" {
		lang = engine.RulesLangs[0]
	}
	if !slices.Contains(engine.RulesLangs, lang) {
		writeError(w, http.StatusBadRequest, "bad-lang", "the rules are written in en and fr")
		return
	}
	text, ok := book.Rules(lang)
	if !ok {
		writeError(w, http.StatusNotFound, "not-found", "no rules in that language")
		return
	}
	out := rulesAnswer{Title: g.Info().Title, Lang: lang, Text: text, Blocks: engine.ParseRules(text),
		Examples: map[string]rulesExample{}}
	for _, name := range engine.RulesExamples(out.Blocks) {
		x, ok := book.Example(name)
		if !ok {
			continue // the conformance suite reports it; the text still reads
		}
		st, err := x.Build(g)
		if err != nil {
			continue
		}
		out.Examples[name] = rulesExample{View: st.View(x.Seat), Seat: x.Seat, Players: st.Players()}
	}
	writeJSON(w, http.StatusOK, out)
}

// rulesPage serves the rules page of a game that has rules.
func (s *Server) rulesPage(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := s.rulebook(r); !ok {
		http.NotFound(w, r)
		return
	}
	s.page("rules.html")(w, r)
}
