package script

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/bookworm"
)

const bwHead = `{"game":"bookworm","players":["ann","bob","cy"],"actions":[{"card":1},{"category":0},` +
	`{"roll":["C/K","D","M","P","A","B","N","a-z"]},`

func TestBookwormMalformed(t *testing.T) {
	for name, actions := range map[string]string{
		"two forms":       `{"word":"dog","take":"D","vote":"accept"}`,
		"no form":         `{"at":5}`,
		"unknown field":   `{"word":"dog","take":"D","face":"D"}`,
		"take and die":    `{"word":"dog","take":"D","die":1}`,
		"die and from":    `{"word":"dog","die":1,"from":"bob"}`,
		"from nobody":     `{"word":"dog","take":"D","from":"zed"}`,
		"by nobody":       `{"vote":"accept","by":"zed"}`,
		"by on chance":    `{"card":2,"by":"ann"}`,
		"bad vote":        `{"vote":"maybe","by":"ann"}`,
		"false flag":      `{"challenge":false}`,
		"at and after":    `{"timeout":true,"at":5,"after":5}`,
		"negative time":   `{"timeout":true,"at":-5}`,
		"turn to nothing": `{"turnTo":"up"}`,
		"letter two":      `{"word":"cat","take":"C/K","letter":"ck"}`,
		"take on a vote":  `{"vote":"accept","take":"D"}`,
		"roll of nine":    `{"roll":["D","D","D","D","D","D","D","D","D"]}`,
	} {
		out := run(t, bwHead+actions+`]}`)
		if out.Code != ExitMalformed || !strings.Contains(string(out.Stdout), `"action": 3`) {
			t.Errorf("%s: exit %d %s", name, out.Code, out.Stdout)
		}
	}
}

func TestBookwormRefusals(t *testing.T) {
	cases := []struct {
		name, actions, rule string
		at                  int
	}{
		{"who challenges", `{"word":"unicorn","take":"a-z"},{"challenge":true}`, RuleWhoActs, 4},
		{"time backwards", `{"word":"dog","take":"D","at":5000},{"word":"cat","take":"K","at":4000}`, RuleTimeBackwards, 4},
		{"no die shows it", `{"word":"zebra","take":"Z"}`, bookworm.RuleNoSuchDie, 3},
		{"not in front of", `{"word":"dog","take":"D","from":"cy"}`, bookworm.RuleNoSuchDie, 3},
		{"speaker votes", `{"word":"unicorn","take":"a-z"},{"challenge":true,"by":"cy"},{"vote":"accept","by":"bob"}`, bookworm.RuleOwnWord, 5},
		{"timeout too early", `{"timeout":true,"at":14999}`, bookworm.RuleNotYetTimedOut, 3},
		{"roll twice", `{"roll":["C/K","D","M","P","A","B","N","a-z"]}`, "wrong-action", 3},
		{"die out of range", `{"word":"dog","die":9}`, bookworm.RuleNoSuchDie, 3},
	}
	for _, c := range cases {
		f := failureOf(t, run(t, bwHead+c.actions+`]}`))
		if f.Rule != c.rule || f.Action != c.at {
			t.Errorf("%s: %+v, want %s at %d", c.name, f, c.rule, c.at)
		}
	}
}

// A timeout without a time happens at the deadline; "after" counts from
// the latest move; "by" picks the voter.
func TestBookwormScriptClock(t *testing.T) {
	out := run(t, bwHead+`{"word":"dog","take":"D","after":2500},{"timeout":true}]}`)
	var rep bookworm.Report
	if err := json.Unmarshal(out.Stdout, &rep); err != nil || out.Code != ExitOK {
		t.Fatalf("exit %d %v %s", out.Code, err, out.Stdout)
	}
	if rep.Now != 17500 || rep.LastRound == nil || rep.LastRound.Failer != "cy" {
		t.Fatalf("now %d last round %+v", rep.Now, rep.LastRound)
	}
}

// TestBookwormAfterTheEnd: once the game is over every action is refused
// with game-over, a word that names its die by a face no die shows too.
func TestBookwormAfterTheEnd(t *testing.T) {
	ended, err := os.ReadFile(filepath.Join(scriptsDir, "bookworm-game-end.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, action := range []string{`{"word":"zebra","take":"Z"}`, `{"word":"dog","take":"D","from":"bob"}`,
		`{"word":"dog","die":1}`, `{"name":"dog","die":1}`, `{"card":2}`, `{"giveUp":true}`, `{"timeout":true}`} {
		src := strings.Replace(string(ended), `{"timeout": true}
 ]}`, `{"timeout": true},
   `+action+`
 ]}`, 1)
		if f := failureOf(t, run(t, src)); f.Rule != "game-over" || f.Action != 12 {
			t.Errorf("%s after the end: %+v, want game-over at 12", action, f)
		}
	}
}
