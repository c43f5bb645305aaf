package sqlite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/sqlite"
)

// BenchmarkServerBotTables is the whole server on this store: 64 Dice
// Stars tables of four bots with no delay play to the end at once, every
// move stored (fsynced) before it is told. One op is that round of games;
// moves/s counts every stored move of it. The bots' own thinking and the
// actors share the two cores with the store, so this is the server's
// ceiling on this machine, not the store's.
func BenchmarkServerBotTables(b *testing.B) {
	const tables = 64
	st, err := sqlite.Open(filepath.Join(b.TempDir(), "server.db"))
	if err != nil {
		b.Fatal(err)
	}
	srv, err := server.New(server.Config{
		Store:     st,
		Games:     all.Registry,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		BotDelay:  -1,
		PostRate:  1e6,
		PostBurst: 1e6,
		Budgets:   server.Budgets{TablesPerCreator: 1e6, TablesPerHour: 1e6},
		Limits:    server.Limits{ConnsPerAddr: 1e6, WSPerAddr: 1e6},
	})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer()
	hs.Start()
	b.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		st.Close()
	})
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: time.Minute}
	ctx := context.Background()

	moves := 0
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		ids := make([]string, tables)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Go(func() {
				id, err := botTable(ctx, client, hs.URL)
				if err != nil {
					b.Error(err)
				}
				ids[i] = id
			})
		}
		wg.Wait()
		if b.Failed() {
			b.FailNow()
		}
		for _, id := range ids {
			for {
				tb, err := st.GetTable(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				if tb.Status == store.StatusOver {
					moves += tb.Version
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		elapsed += time.Since(start)
	}
	b.ReportMetric(float64(moves)/elapsed.Seconds(), "moves/s")
}

// botTable makes a Dice Stars table of the client and three bots, and
// hands the client's seat to a bot: from then on bots play it out.
func botTable(ctx context.Context, client *http.Client, base string) (string, error) {
	body, _ := json.Marshal(map[string]any{"game": "dicestars", "name": "bench", "seats": []map[string]any{
		{"kind": "human", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}}})
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/tables", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var out struct{ ID string }
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(data, &out) != nil {
		return "", fmt.Errorf("create table: %d %s", resp.StatusCode, data)
	}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/"+out.ID, &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		return "", err
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	if _, _, err := c.Read(ctx); err != nil { // the welcome
		return "", err
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"leave"}`)); err != nil {
		return "", err
	}
	// Wait for the seat to change hands before closing, so the leave
	// is not lost with the connection.
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return "", err
		}
		if bytes.Contains(data, []byte(`"update"`)) || bytes.Contains(data, []byte(`"seats"`)) {
			return out.ID, nil
		}
	}
}
