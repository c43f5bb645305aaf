package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestSimReportIndependentOfWorkers(t *testing.T) {
	run := func(workers string) SimReport {
		out, code := runDicehall(t, "", "sim", "dicestars", "--bots", "greedy,random", "--games", "24", "--seed", "3", "--json", "--workers", workers)
		if code != 0 {
			t.Fatalf("sim exited %d: %s", code, out)
		}
		var rep SimReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("sim --json output: %v\n%s", err, out)
		}
		return rep
	}
	one, two := run("1"), run("2")
	a, _ := json.Marshal(one)
	b, _ := json.Marshal(two)
	if !bytes.Equal(a, b) {
		t.Fatalf("results depend on the worker count:\n1: %s\n2: %s", a, b)
	}
	if one.Games != 24 || len(one.Bots) != 2 || one.Solo {
		t.Fatalf("unexpected report shape: %+v", one)
	}
	g, r := one.Bots[0], one.Bots[1]
	if g.Bot != "greedy" || r.Bot != "random" {
		t.Fatalf("bots %q, %q", g.Bot, r.Bot)
	}
	if g.Wins+g.Ties+g.Losses != 24 || g.Wins+r.Wins+g.Ties != 24 {
		t.Fatalf("counts do not add up: %+v %+v", g, r)
	}
	// Greedy beats random nearly always (99.6% over 2000 games); at this seed
	// it must win the large majority.
	if g.Wins < 20 {
		t.Fatalf("greedy won only %d of 24 against random", g.Wins)
	}
}

func TestSimSoloAndPlot(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "scores.png")
	out, code := runDicehall(t, "", "sim", "dicestars", "--bots", "greedy", "--games", "8", "--seed", "2", "--json", "--plot", plot)
	if code != 0 {
		t.Fatalf("sim exited %d: %s", code, out)
	}
	var rep SimReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Solo || len(rep.Bots) != 1 || rep.Bots[0].GridLosses == nil {
		t.Fatalf("solo report expected: %s", out)
	}
	png, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("plot is not a PNG (%d bytes)", len(png))
	}
}

func TestSimRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "nosuchgame"},
		{"sim", "dicestars", "--bots", "greedy,nosuchbot"},
		{"sim", "dicestars", "--bots", "a,b,c,d,e"},
	} {
		if _, code := runDicehall(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
