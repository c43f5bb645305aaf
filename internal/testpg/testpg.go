// Package testpg starts throwaway PostgreSQL servers for tests: initdb into
// a temporary directory, postgres on a free loopback port (its unix socket
// in that directory too), stopped and removed when the tests end.
//
// Most tests share one server per test binary (Start) and take a fresh
// database each (CreateDB), so they stay independent and a test binary pays
// for one initdb. Packages that use Start should stop it after their tests
// with a TestMain:
//
//	func TestMain(m *testing.M) { testpg.Main(m) }
//
// (without one the server still dies with the test binary, by the parent-
// death signal, but its directory stays behind in the temp dir).
//
// The binaries come from PATH or /usr/lib/postgresql/*/bin (Debian). When
// they are missing the tests skip, unless DICEHALL_CLUSTER=require (as
// scripts/test.sh sets it), when they fail. PostgreSQL refuses to run as
// root; as root the server runs as the "postgres" system user.
package testpg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvRequire names the variable that, set to "require", turns a skip for
// missing binaries into a failure.
const EnvRequire = "DICEHALL_CLUSTER"

// ErrNoPostgres: the PostgreSQL binaries are not installed.
var ErrNoPostgres = errors.New("testpg: PostgreSQL binaries (initdb, postgres) not found in PATH or /usr/lib/postgresql/*/bin")

// Options adjust a server.
type Options struct {
	// Durable keeps fsync on, as in production (benchmarks of commits);
	// otherwise fsync and full-page writes are off, which is faster and
	// loses nothing unless the machine itself crashes.
	Durable bool
}

// Server is a running PostgreSQL server.
type Server struct {
	dir  string // its temporary directory: data/, the socket, postgres.log
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when postgres has exited

	dbs      atomic.Int64
	stopOnce sync.Once
	stopErr  error
}

// shared holds the test binary's shared servers, one per Options.
var shared struct {
	sync.Mutex
	m map[Options]*sharedServer
}

type sharedServer struct {
	once sync.Once
	srv  *Server
	err  error
}

// Start returns the test binary's shared server (fsync off), starting it on
// first use. It skips tb (or fails it, with DICEHALL_CLUSTER=require) when
// the binaries are missing, and fails it when the server cannot start.
func Start(tb testing.TB) *Server {
	tb.Helper()
	return Shared(tb, Options{})
}

// Shared is Start for a server with options o (benchmarks share a durable
// one): one per test binary and Options.
func Shared(tb testing.TB, o Options) *Server {
	tb.Helper()
	shared.Lock()
	if shared.m == nil {
		shared.m = map[Options]*sharedServer{}
	}
	sh := shared.m[o]
	if sh == nil {
		sh = &sharedServer{}
		shared.m[o] = sh
	}
	shared.Unlock()
	sh.once.Do(func() { sh.srv, sh.err = Launch(o) })
	if sh.err != nil {
		fail(tb, sh.err)
	}
	return sh.srv
}

// New starts a server of tb's own, stopped when tb ends; it skips or fails
// like Start.
func New(tb testing.TB, o Options) *Server {
	tb.Helper()
	s, err := Launch(o)
	if err != nil {
		fail(tb, err)
	}
	tb.Cleanup(func() {
		if err := s.Stop(); err != nil {
			tb.Errorf("testpg: %v", err)
		}
	})
	return s
}

// Main runs a package's tests (m.Run), stops the shared servers they
// started, and exits with their code.
func Main(m *testing.M) {
	code := m.Run()
	shared.Lock()
	for _, sh := range shared.m {
		if sh.srv != nil {
			if err := sh.srv.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		}
	}
	shared.Unlock()
	os.Exit(code)
}

func fail(tb testing.TB, err error) {
	tb.Helper()
	if errors.Is(err, ErrNoPostgres) && os.Getenv(EnvRequire) != "require" {
		tb.Skipf("%v (install Debian's postgresql, or set %s=require to fail instead)", err, EnvRequire)
	}
	tb.Fatal(err)
}

// Binaries returns the directory holding initdb and postgres: PATH first,
// then Debian's /usr/lib/postgresql/<version>/bin, newest version first.
func Binaries() (string, error) {
	if p, err := exec.LookPath("postgres"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if executable(filepath.Join(d, "postgres")) && executable(filepath.Join(d, "initdb")) {
			return d, nil
		}
	}
	return "", ErrNoPostgres
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Launch starts a server outside any test's lifetime (a TestMain, a tool):
// the caller must Stop it. ErrNoPostgres when the binaries are missing.
func Launch(o Options) (*Server, error) {
	bin, err := Binaries()
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "dicehall-testpg-")
	if err != nil {
		return nil, fmt.Errorf("testpg: %w", err)
	}
	s, err := launch(bin, dir, cred, o)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// credential is who the server runs as: the "postgres" system user when
// this process is root (PostgreSQL refuses root), else nil (ourselves).
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("testpg: running as root, and PostgreSQL refuses root: need the postgres system user (Debian's postgresql package makes it): %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("testpg: the postgres user: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func launch(bin, dir string, cred *syscall.Credential, o Options) (*Server, error) {
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, fmt.Errorf("testpg: %w", err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Env = env(dir)
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("testpg: initdb: %w\n%s", err, tail(out))
	}
	// A port can be taken between finding it free and postgres binding
	// it (another test binary doing the same): try a few.
	var err error
	for range 5 {
		var s *Server
		if s, err = run(bin, dir, cred, o); err == nil {
			return s, nil
		}
		if !strings.Contains(err.Error(), "could not bind") && !strings.Contains(err.Error(), "could not create any TCP/IP sockets") {
			break
		}
	}
	return nil, err
}

// run starts postgres over an initialised data directory and waits until
// it accepts connections.
func run(bin, dir string, cred *syscall.Credential, o Options) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "postgres.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("testpg: %w", err)
	}
	defer logf.Close() // the child has its own descriptor
	args := []string{"-D", filepath.Join(dir, "data"), "-p", strconv.Itoa(port),
		"-h", "127.0.0.1", "-k", dir,
		"-c", "max_connections=300", "-c", "synchronous_commit=on",
		"-c", "log_min_messages=warning", "-c", "log_min_error_statement=panic"}
	if !o.Durable {
		args = append(args, "-c", "fsync=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"), args...)
	cmd.Env = env(dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	// SIGQUIT when this process dies (immediate shutdown): no server
	// outlives a test binary that forgot to stop it, or was killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("testpg: start postgres: %w", err)
	}
	s := &Server{dir: dir, port: port, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	if err := s.ready(30 * time.Second); err != nil {
		s.kill()
		return nil, fmt.Errorf("%w\npostgres.log:\n%s", err, s.logTail())
	}
	return s, nil
}

func env(dir string) []string {
	return append(os.Environ(), "LC_ALL=C", "HOME="+dir, "PGTZ=UTC")
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("testpg: find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ready waits until the server accepts a connection, or it exits.
func (s *Server) ready(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	var err error
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("testpg: postgres exited while starting (%v)", s.cmd.ProcessState)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		var c *pgx.Conn
		if c, err = pgx.Connect(ctx, s.URL("postgres")); err == nil {
			err = c.Ping(ctx)
			c.Close(ctx)
		}
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("testpg: postgres not ready after %v: %w", limit, err)
}

func (s *Server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
	return tail(b)
}

// tail is the last lines of a log, for an error message.
func tail(b []byte) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// Port is the server's TCP port on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// URL is a connection URL for database db, as the superuser "postgres"
// (no password: the server trusts loopback connections).
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// CreateDB makes a fresh, empty database and returns its URL; it is
// dropped when tb ends (after tb's later cleanups, such as closing a store
// opened on it).
func (s *Server) CreateDB(tb testing.TB) string {
	tb.Helper()
	name := fmt.Sprintf("test%d", s.dbs.Add(1))
	if err := s.exec(fmt.Sprintf("CREATE DATABASE %s", name)); err != nil {
		tb.Fatalf("%v\npostgres.log:\n%s", err, s.logTail())
	}
	tb.Cleanup(func() {
		if err := s.exec(fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			tb.Errorf("%v", err)
		}
	})
	return s.URL(name)
}

// exec runs one statement in the "postgres" database.
func (s *Server) exec(sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return fmt.Errorf("testpg: %s: %w", sql, err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, sql); err != nil {
		return fmt.Errorf("testpg: %s: %w", sql, err)
	}
	return nil
}

// Stop shuts the server down (fast: sessions are ended) and removes its
// directory. Stopping twice is harmless.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		_ = s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			s.kill()
			s.stopErr = fmt.Errorf("testpg: postgres did not stop in 15s; killed\npostgres.log:\n%s", s.logTail())
		}
		if err := os.RemoveAll(s.dir); err != nil {
			s.stopErr = errors.Join(s.stopErr, fmt.Errorf("testpg: %w", err))
		}
	})
	return s.stopErr
}

// kill ends postgres and its children at once.
func (s *Server) kill() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}
