package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/natsrv"
	"github.com/dicehall/dicehall/internal/testpg"
)

// TestClusterPartition cuts two of three nodes off PostgreSQL, each its
// own way, through a TCP proxy between it and the database:
//   - "held": the network goes silent. What the node sends waits, as TCP
//     segments do in a partition, and reaches the database late, once it
//     heals: writes the node began under its lease arrive after another
//     node took its tables over.
//   - "cut": every connection is reset and new ones refused.
//
// Each ran tables (bots, and one with players reaching it through the other
// nodes). The cut node's actors stop by themselves once a whole lease time
// passes without a renewal; the third node, "b", adopts every table and
// finishes it. A trigger in the database records every write of the
// tables' rows and moves with the connection's node and the lease of the
// moment: no node wrote a table whose lease another held (fencing), the
// held node's late writes included. Every log is whole and replays, and
// agrees with what the clients were told and sent.
func TestClusterPartition(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs a cluster")
	}
	bin := buildDicehall(t)
	ns, err := natsrv.Start("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Close)
	pg := testpg.New(t, testpg.Options{})
	db := pg.CreateDB(t)
	const b, held, cut = 0, 1, 2
	c := newTestCluster(t, db, "b", "held", "cut") // migrates the database
	installAudit(t, db)
	pgAddr := "127.0.0.1:" + strconv.Itoa(pg.Port())
	links := map[int]*pgLink{held: newPGLink(t, pgAddr), cut: newPGLink(t, pgAddr)}
	for i, name := range c.names {
		url := db
		if l := links[i]; l != nil {
			url = strings.Replace(url, pgAddr, l.addr(), 1)
		}
		// The database knows each node's connections by their
		// application_name: the audit's "app".
		url += "&application_name=" + name
		if i == held {
			// Connections at the ready: the writes under way when the
			// network goes silent are sent, not waiting for a new one.
			url += "&pool_min_conns=8"
		}
		c.setNode(i, startServe(t, bin, url, nodeFlags(ns.URL(), name, "--metrics-addr", "127.0.0.1:0")...))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var tables []*watched
	for _, on := range []int{held, held, cut, cut, held} {
		k := botTable("dicestars")
		k.botDelayMs = 100
		if len(tables) == 4 {
			k = drivenTable("dicestars", 2, 0)
		}
		k.createdOnNode = on
		w, ok := c.makeTable(k)
		if !ok {
			t.Fatal("no answer to a join, with no node dying")
		}
		if k.humans > 0 {
			// A table waiting for players, then for their pages, lets its
			// actor stop (anyone may take it up later): a page open
			// on the node it was made on keeps it there.
			pin, err := dialTable(ctx, c.node(on), w.id, "")
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				defer pin.CloseNow()
				for _, _, err := pin.Read(ctx); err == nil; _, _, err = pin.Read(ctx) {
				}
			}()
		}
		eventually(t, 10*time.Second, "the table runs where it was made", func() bool { return c.owner(w.id) == on })
		tables = append(tables, w)
		c.spectate(ctx, &wg, w)
		for s := range k.humans {
			c.play(ctx, &wg, w, engine.Seat(s))
		}
	}
	eventually(t, 20*time.Second, "a few moves at every table", func() bool {
		for _, w := range tables {
			if m, err := c.st.GetTable(ctx, w.id); err != nil || m.Version < 5 {
				return false
			}
		}
		return true
	})

	links[held].hold()
	links[cut].sever()
	cutAt := time.Now()
	eventually(t, 15*time.Second, "the cut node's actors stop", func() bool {
		return tablesOwned(t, c.node(cut)) == 0
	})
	t.Logf("the cut node ran no table %v after the cut", time.Since(cutAt).Round(10*time.Millisecond))
	eventually(t, 15*time.Second, "the held node's actors stop", func() bool {
		return tablesOwned(t, c.node(held)) == 0
	})
	t.Logf("the held node ran no table %v after the cut", time.Since(cutAt).Round(10*time.Millisecond))
	eventually(t, 15*time.Second, "b adopts every table", func() bool {
		for _, w := range tables {
			// Its lease, held still or let go (a game b finished).
			if node, _ := leaseRow(t, db, w.id); !strings.HasPrefix(node, c.names[b]+"~") {
				return false
			}
		}
		return true
	}, func() { dumpLeases(t, db) })
	t.Logf("b took every table %v after the cut", time.Since(cutAt).Round(10*time.Millisecond))
	healed := time.Now()
	late := links[held].heal()
	links[cut].heal()
	if late == 0 {
		t.Error("the held node sent nothing while cut off: nothing arrived late")
	}

	c.waitOver(tables, 60*time.Second)
	cancel()
	wg.Wait()
	checkTables(t, c.st, tables)
	tries, fenced := checkAudit(t, db, c.names, c.names[held], healed)
	t.Logf("%d bytes from the held node reached the database late; after the heal, %d appends of the held node's reached it, %d writing nothing", late, tries, fenced)
}

// eventually polls cond until it holds, failing the test after within
// (having called each explain).
func eventually(t *testing.T, within time.Duration, what string, cond func() bool, explain ...func()) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			for _, f := range explain {
				f()
			}
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// leaseRow is table id's lease row, whatever its state: its node and epoch.
func leaseRow(t *testing.T, db, id string) (string, int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var node string
	var epoch int64
	if err := conn.QueryRow(ctx, `SELECT node, epoch FROM leases WHERE table_id = $1`, id).Scan(&node, &epoch); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	return node, epoch
}

// dumpLeases logs every lease and its table's status and version.
func dumpLeases(t *testing.T, db string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Logf("leases: %v", err)
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT t.id, t.status, t.version, coalesce(l.node, ''), coalesce(l.epoch, 0), coalesce(l.state, ''),
		coalesce(l.expires_ms - floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint, 0)
		FROM tables t LEFT JOIN leases l ON l.table_id = t.id ORDER BY t.id`)
	if err != nil {
		t.Logf("leases: %v", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id, status, node, state string
		var version, epoch, left int64
		if err := rows.Scan(&id, &status, &version, &node, &epoch, &state, &left); err != nil {
			t.Logf("leases: %v", err)
			return
		}
		t.Logf("table %s: %s at version %d; lease %q epoch %d %s, expires in %d ms", id, status, version, node, epoch, state, left)
	}
}

// tablesOwned reads a node's dicehall_tables_owned metric (-1 when it
// cannot be read).
func tablesOwned(t *testing.T, n *served) int {
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Get(n.metrics)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "dicehall_tables_owned "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("dicehall_tables_owned %q: %v", v, err)
			}
			return int(f)
		}
	}
	return -1
}

// installAudit adds to the database a record of every write of a table's
// row or moves: the writing connection's application_name (its node) and
// the table's lease at that moment, read in the writing transaction.
func installAudit(t *testing.T, db string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE TABLE audit (app TEXT, op TEXT, table_id TEXT, lease_node TEXT, lease_epoch BIGINT, at TIMESTAMPTZ DEFAULT clock_timestamp())`,
		`CREATE FUNCTION audit() RETURNS trigger LANGUAGE plpgsql AS $$
		DECLARE tid TEXT;
		BEGIN
			IF TG_TABLE_NAME = 'moves' THEN tid := NEW.table_id; ELSE tid := NEW.id; END IF;
			INSERT INTO audit (app, op, table_id, lease_node, lease_epoch)
				SELECT current_setting('application_name'), TG_TABLE_NAME, tid, l.node, l.epoch
				FROM (SELECT 1) one LEFT JOIN leases l ON l.table_id = tid;
			RETURN NULL;
		END $$`,
		`CREATE TRIGGER audit_moves AFTER INSERT ON moves FOR EACH ROW EXECUTE FUNCTION audit()`,
		`CREATE TRIGGER audit_tables AFTER UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION audit()`,
		// Statements that reached the database, written or not: a fenced
		// append is an INSERT of no row.
		`CREATE TABLE audit_tries (app TEXT, rows BIGINT, at TIMESTAMPTZ DEFAULT clock_timestamp())`,
		`CREATE FUNCTION audit_try() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			INSERT INTO audit_tries (app, rows) SELECT current_setting('application_name'), count(*) FROM inserted;
			RETURN NULL;
		END $$`,
		`CREATE TRIGGER audit_tries AFTER INSERT ON moves REFERENCING NEW TABLE AS inserted
			FOR EACH STATEMENT EXECUTE FUNCTION audit_try()`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("audit: %v", err)
		}
	}
}

// checkAudit: every write of a node's was made under a lease of that
// node's, and every node wrote. It returns how many appends of node late
// reached the database after healed, and how many of them wrote nothing.
func checkAudit(t *testing.T, db string, names []string, late string, healed time.Time) (tries, fenced int) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT app, op, table_id, coalesce(lease_node, ''), coalesce(lease_epoch, 0), count(*)
		FROM audit GROUP BY 1, 2, 3, 4, 5 ORDER BY 3, 5`)
	if err != nil {
		t.Fatal(err)
	}
	writes := map[string]int{}
	for rows.Next() {
		var app, op, table, node string
		var epoch int64
		var n int
		if err := rows.Scan(&app, &op, &table, &node, &epoch, &n); err != nil {
			t.Fatal(err)
		}
		writes[app] += n
		if holder, _, _ := strings.Cut(node, "~"); holder != app {
			t.Errorf("table %s: %s wrote %d %s while %q held the lease (epoch %d)", table, app, n, op, node, epoch)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if writes[name] == 0 {
			t.Errorf("node %s wrote nothing: the audit sees no writes of it (%v)", name, writes)
		}
	}
	t.Logf("writes by node: %v", writes)
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE rows = 0) FROM audit_tries WHERE app = $1 AND at >= $2`,
		late, healed).Scan(&tries, &fenced); err != nil {
		t.Fatal(err)
	}
	return tries, fenced
}

// pgLink is a TCP proxy between one node and PostgreSQL that the test can
// cut: hold (bytes wait, and go on when it heals) or sever (connections
// reset, new ones closed at once until it heals).
type pgLink struct {
	ln       net.Listener
	upstream string

	mu      sync.Mutex
	cond    *sync.Cond
	held    bool
	severed bool
	closed  bool
	// fresh: the connections opened during the hold may go on too. They
	// go a moment after the others, so that the writes under way when the
	// network went silent reach the database first, before anything sent
	// since (pgx's cancel requests for them): the same case every run.
	fresh bool
	late  int // bytes that waited for the heal
	conns map[net.Conn]struct{}
}

func newPGLink(t *testing.T, upstream string) *pgLink {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &pgLink{ln: ln, upstream: upstream, conns: map[net.Conn]struct{}{}}
	l.cond = sync.NewCond(&l.mu)
	go l.serve()
	t.Cleanup(l.close)
	return l
}

func (l *pgLink) addr() string { return l.ln.Addr().String() }

func (l *pgLink) hold() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held, l.fresh = true, false
}

func (l *pgLink) sever() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.severed = true
	l.dropAll()
}

// heal lets everything through again; it returns the bytes that waited.
func (l *pgLink) heal() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held, l.severed = false, false
	l.cond.Broadcast()
	time.AfterFunc(200*time.Millisecond, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.fresh = true
		l.cond.Broadcast()
	})
	return l.late
}

func (l *pgLink) close() {
	_ = l.ln.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	l.dropAll()
}

// dropAll closes every connection (l.mu held).
func (l *pgLink) dropAll() {
	for c := range l.conns {
		_ = c.Close()
	}
	clear(l.conns)
	l.cond.Broadcast()
}

func (l *pgLink) serve() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		go l.pipe(c)
	}
}

// track registers a connection, or closes it while the link is severed;
// duringHold: it was opened while the link held.
func (l *pgLink) track(c net.Conn) (ok, duringHold bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.severed || l.closed {
		_ = c.Close()
		return false, false
	}
	l.conns[c] = struct{}{}
	return true, l.held
}

func (l *pgLink) forget(cs ...net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range cs {
		delete(l.conns, c)
		_ = c.Close()
	}
}

func (l *pgLink) pipe(c net.Conn) {
	ok, duringHold := l.track(c)
	if !ok {
		return
	}
	u, err := net.Dial("tcp", l.upstream)
	if err != nil {
		l.forget(c)
		return
	}
	if ok, _ := l.track(u); !ok {
		l.forget(c)
		return
	}
	done := make(chan struct{})
	go func() {
		l.copy(u, c, duringHold)
		close(done)
	}()
	l.copy(c, u, duringHold)
	<-done
	l.forget(c, u)
}

// copy forwards src to dst, each chunk once the link lets it through. An
// end of src is passed on as a half close (a query sent before its
// client went is still run, as PostgreSQL would with a real network); any
// other failure closes both.
func (l *pgLink) copy(dst, src net.Conn, duringHold bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !l.pass(n, duringHold) {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				_ = src.Close()
				_ = dst.Close()
				return
			}
		}
		if errors.Is(err, io.EOF) {
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			return
		}
		if err != nil {
			_ = src.Close()
			_ = dst.Close()
			return
		}
	}
}

// pass waits while the link holds (a connection opened during the hold,
// until fresh); false when it was severed meanwhile.
func (l *pgLink) pass(n int, duringHold bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		l.late += n
	}
	for (l.held || duringHold && !l.fresh) && !l.severed && !l.closed {
		l.cond.Wait()
	}
	return !l.severed && !l.closed
}
