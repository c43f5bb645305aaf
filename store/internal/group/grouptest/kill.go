package grouptest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// AppendForever is the child process of a kill test (KillChild): it
// appends to each of ids from a goroutine of its own, step(v) moves at
// version v (move(v) and on), and prints "ack TABLE V" once AppendMoves
// has returned for version V; on an error it prints "error …" and exits.
// It never returns: the parent kills it (or it exits after 30 s).
func AppendForever(s store.Store, ids []string, step func(v int) int, move func(v int) engine.LoggedMove) {
	var out sync.Mutex
	die := func(err error) {
		out.Lock()
		fmt.Println("error", err)
		os.Exit(2)
	}
	for _, id := range ids {
		go func() {
			ctx := context.Background()
			tb, err := s.GetTable(ctx, id)
			if err != nil {
				die(err)
			}
			for v := tb.Version; ; v += step(v) {
				moves := make([]engine.LoggedMove, step(v))
				for i := range moves {
					moves[i] = move(v + i)
				}
				if err := s.AppendMoves(ctx, id, v, moves, store.NoFence); err != nil {
					die(err)
				}
				out.Lock()
				fmt.Printf("ack %s %d\n", id, v+len(moves)) // os.Stdout is unbuffered: printed means written
				out.Unlock()
			}
		}()
	}
	time.Sleep(30 * time.Second) // bounded: the parent kills it long before
	os.Exit(3)
}

// KillChild runs this test binary's test named test (which calls
// AppendForever) with env added to its environment, SIGKILLs it delay
// after its acks-th acknowledgement, and records in acked the last version
// it acknowledged of each table (acked carries over from earlier rounds).
func KillChild(t *testing.T, test string, env []string, acked map[string]int, acks int, delay time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "ack ")
		id, v, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n <= acked[id] {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %q (table %s acknowledged at %d)", line, id, acked[id])
		}
		acked[id] = n
		if seen++; seen == acks {
			// From another goroutine, so acks printed meanwhile are
			// still read and counted.
			time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL || seen < acks {
		t.Fatalf("child ended with %v after %d acks, want SIGKILL after %d", err, seen, acks)
	}
}
