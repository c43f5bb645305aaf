package dicestars_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func die(s string) dicestars.Die {
	d, err := dicestars.ParseDie(s)
	if err != nil {
		panic(err)
	}
	return d
}

// One turn: announce three dice, fix what they show, take a colour.
func Example() {
	s, _ := dicestars.NewState(nil, 2)
	fmt.Println(s.Apply(dicestars.Draw(2, false))) // the reserve is empty: three dice
	_ = s.Apply(dicestars.Draw(3, false))
	_ = s.Apply(dicestars.Roll(die("blue:5"), die("blue:star"), die("orange:4")))
	_ = s.Apply(dicestars.TakeColor(dicestars.Blue)) // both blue dice, the star too
	sh := &s.Sheets[0]
	for r := 0; r < 2; r++ {
		filled, x, v := sh.Cell(r, s.L.ColumnOf(dicestars.Blue))
		fmt.Println(s.L.RowValues[r], filled, x, v)
	}
	fmt.Println("reserve:", s.ReserveDice(), "next:", s.Current, s.Phase)
	// Output:
	// the reserve is empty or shows only stars, so you must draw 3 dice
	// 2 true true -1
	// 3 true false 5
	// reserve: [orange:4] next: 1 draw
}

// Refusals carry a stable rule code.
func ExampleState_Check() {
	s, _ := dicestars.NewState(nil, 2)
	_ = s.Apply(dicestars.Draw(3, false))
	err := s.Check(dicestars.Roll(die("orange:2"), die("blue:3"), die("blue:4")))
	if re, ok := engine.AsRuleError(err); ok {
		fmt.Println(re.Rule+":", re.Message)
	}
	fmt.Println(errors.Is(err, engine.Refuse(dicestars.RuleRollFace, "")))
	// Output:
	// roll-face: an orange die has no face 2
	// true
}

func ExampleLayout_SoloMarks() {
	l := &dicestars.DefaultLayout
	fmt.Println(l.SoloMarks(nil))
	fmt.Println(l.SoloMarks([]dicestars.Die{die("blue:star"), die("black:star")}))
	fmt.Println(l.SoloMarks([]dicestars.Die{die("blue:6"), die("black:5")}))
	fmt.Println(l.SoloMarks([]dicestars.Die{die("blue:6"), die("black:star")}))
	// Output:
	// 0
	// 1
	// 3
	// 3
}

// Decoding judges the form only; a number out of range is the rules' to
// refuse, with their code.
func ExampleDecodeAction() {
	for _, in := range []string{
		`{"draw":2}`,
		`{"take":"stars","multipliers":[6,3]}`,
		`{"draw":5}`,
		`{"take":"value"}`,
	} {
		a, err := dicestars.DecodeAction([]byte(in))
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		out, _ := json.Marshal(a)
		fmt.Printf("%v %s\n", a, out)
	}
	s, _ := dicestars.NewState(nil, 2)
	a, _ := dicestars.DecodeAction([]byte(`{"draw":5}`))
	re, _ := engine.AsRuleError(s.Check(a))
	fmt.Println(re.Rule+":", re.Message)
	// Output:
	// draw 2 {"draw":2}
	// take stars, multipliers in rows 3,6 {"take":"stars","multipliers":[3,6]}
	// draw 5 {"draw":5}
	// error: take value: "value" is missing
	// draw-count: a draw is of 1, 2 or 3 dice, not 5
}
