package notify_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/dicehall/dicehall/notify"
)

// mailServer is an SMTP server started by the test (go-smtp): STARTTLS
// with a certificate for 127.0.0.1, AUTH PLAIN for one user, and the mails
// it accepted.
type mailServer struct {
	addr string
	pool *x509.CertPool

	mu    sync.Mutex
	mails []received
	got   chan struct{}
}

type received struct {
	from, to string
	tls      bool
	user     string
	data     []byte
}

type mailSession struct {
	srv  *mailServer
	conn *smtp.Conn
	cur  received
}

func (s *mailSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *mailSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "dicehall" || pass != "s3cret" {
			return errors.New("bad credentials")
		}
		s.cur.user = user
		return nil
	}), nil
}

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.cur.user == "" {
		return errors.New("authenticate first")
	}
	s.cur.from = from
	return nil
}

func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error { s.cur.to = to; return nil }

func (s *mailSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, s.cur.tls = s.conn.TLSConnectionState()
	s.cur.data = data
	s.srv.mu.Lock()
	s.srv.mails = append(s.srv.mails, s.cur)
	s.srv.mu.Unlock()
	s.srv.got <- struct{}{}
	return nil
}

func (s *mailSession) Reset()        { s.cur = received{user: s.cur.user} }
func (s *mailSession) Logout() error { return nil }

func newMailServer(t *testing.T) *mailServer {
	t.Helper()
	// httptest's certificate is for 127.0.0.1: borrow it.
	h := httptest.NewTLSServer(nil)
	cert := h.TLS.Certificates[0]
	pool := x509.NewCertPool()
	pool.AddCert(h.Certificate())
	h.Close()

	m := &mailServer{pool: pool, got: make(chan struct{}, 10)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &mailSession{srv: m, conn: c}, nil
	}))
	srv.Domain = "mail.test"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

func (m *mailServer) smtp() *notify.SMTP {
	return &notify.SMTP{Addr: m.addr, From: "dicehall@example.org", User: "dicehall", Password: "s3cret",
		TLS: &tls.Config{RootCAs: m.pool, ServerName: "127.0.0.1"}}
}

func (m *mailServer) wait(t *testing.T) received {
	t.Helper()
	select {
	case <-m.got:
	case <-time.After(10 * time.Second):
		t.Fatal("no mail arrived")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mails[len(m.mails)-1]
}

// TestMailThroughSMTP: a "your turn" in French reaches a real SMTP server,
// over STARTTLS, authenticated, with its headers and the table's link.
func TestMailThroughSMTP(t *testing.T) {
	ms := newMailServer(t)
	f := newFixture(t, notify.Config{Mail: ms.smtp(), BaseURL: "https://dice.example/"})
	if !f.svc.EmailAvailable() {
		t.Fatal("EmailAvailable false with a server")
	}
	f.settings(t, notify.Settings{Push: false, Email: "ann@example.net", EmailOn: true, Turns: true, Lang: "fr"})
	f.svc.Notify(context.Background(), turn("tb7"))
	got := ms.wait(t)
	if got.from != "dicehall@example.org" || got.to != "ann@example.net" || !got.tls || got.user != "dicehall" {
		t.Fatalf("envelope from %q to %q, TLS %v, user %q", got.from, got.to, got.tls, got.user)
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(got.data)))
	if err != nil {
		t.Fatal(err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || subject != "À vous de jouer\u00a0: Dice Stars" {
		t.Fatalf("Subject %q (%v)", subject, err)
	}
	for k, want := range map[string]string{
		"From": "dicehall@example.org", "To": "ann@example.net", "Content-Type": "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable", "Auto-Submitted": "auto-generated", "MIME-Version": "1.0",
	} {
		if v := msg.Header.Get(k); v != want {
			t.Errorf("%s: %q, want %q", k, v, want)
		}
	}
	if d, err := msg.Header.Date(); err != nil || !d.Equal(f.clock.Now().Truncate(time.Second)) {
		t.Errorf("Date %v (%v), want the clock's %v", d, err, f.clock.Now())
	}
	if !strings.HasSuffix(msg.Header.Get("Message-ID"), "@example.org>") {
		t.Errorf("Message-ID %q", msg.Header.Get("Message-ID"))
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	want := "Bob a joué. C'est à vous.\r\n\r\nOuvrir la table\u00a0: https://dice.example/t/tb7\r\n\r\n-- \r\n" +
		"Vous recevez ce courriel parce que vous l'avez demandé à dice.example. Pour changer ou arrêter ces courriels\u00a0: https://dice.example/account\r\n"
	if string(body) != want {
		t.Fatalf("body:\n%q\nwant:\n%q", body, want)
	}

	// E-mail off: nothing more arrives.
	f.settings(t, notify.Settings{Email: "ann@example.net", EmailOn: false, Turns: true})
	f.svc.Notify(context.Background(), turn("tb8"))
	select {
	case <-ms.got:
		t.Fatal("a mail arrived with e-mail off")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestMailRefusesWrongCertificate: STARTTLS to a server whose certificate
// is not trusted sends nothing (and never the password).
func TestMailRefusesWrongCertificate(t *testing.T) {
	ms := newMailServer(t)
	c := ms.smtp()
	c.TLS = &tls.Config{ServerName: "127.0.0.1"} // system roots: not the test's
	err := c.Send(context.Background(), "ann@example.net", notify.Mail{Subject: "x", Body: "y", Date: time.Now()})
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("Send = %v, want a STARTTLS error", err)
	}
	select {
	case <-ms.got:
		t.Fatal("a mail arrived")
	default:
	}
}
