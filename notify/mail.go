package notify

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"strings"
	"time"
)

// SMTP sends e-mail through the operator's mail server: STARTTLS whenever
// the server offers it, then AUTH PLAIN when a user is set (only over TLS,
// or to a server on this machine).
type SMTP struct {
	Addr     string // host:port
	From     string // the sender's address
	User     string // "" = no authentication
	Password string
	// TLS is the STARTTLS configuration; nil = check the server's
	// certificate against the system's roots for Addr's host.
	TLS *tls.Config
	// Hello is the name given in EHLO; "" = "localhost".
	Hello string
}

// Check refuses a configuration that cannot work.
func (c *SMTP) Check() error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return fmt.Errorf("SMTP server %q is not host:port", c.Addr)
	}
	if a, err := mail.ParseAddress(c.From); err != nil || a.Address != c.From {
		return fmt.Errorf("SMTP sender %q is not a plain address like dicehall@example.org", c.From)
	}
	return nil
}

// Mail is one plain-text e-mail.
type Mail struct {
	Subject string
	Body    string // lines joined by \n
	Date    time.Time
}

// Send sends one e-mail to one address, within ctx.
func (c *SMTP) Send(ctx context.Context, to string, m Mail) error {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", c.Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	cl, err := smtp.NewClient(conn, host)
	if err != nil {
		return err
	}
	defer cl.Close()
	hello := c.Hello
	if hello == "" {
		hello = "localhost"
	}
	if err := cl.Hello(hello); err != nil {
		return err
	}
	if ok, _ := cl.Extension("STARTTLS"); ok {
		cfg := c.TLS
		if cfg == nil {
			cfg = &tls.Config{ServerName: host}
		}
		if err := cl.StartTLS(cfg); err != nil {
			return fmt.Errorf("STARTTLS: %w", err)
		}
	}
	if c.User != "" {
		// smtp.PlainAuth refuses to send the password in the clear to
		// another machine.
		if err := cl.Auth(smtp.PlainAuth("", c.User, c.Password, host)); err != nil {
			return fmt.Errorf("AUTH: %w", err)
		}
	}
	if err := cl.Mail(c.From); err != nil {
		return err
	}
	if err := cl.Rcpt(to); err != nil {
		return err
	}
	w, err := cl.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(c.compose(to, m)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return cl.Quit()
}

// compose writes the message: headers, then the body in quoted-printable
// UTF-8 (no 8BITMIME needed).
func (c *SMTP) compose(to string, m Mail) []byte {
	var id [12]byte
	_, _ = rand.Read(id[:])
	domain := "localhost"
	if _, d, ok := strings.Cut(c.From, "@"); ok {
		domain = d
	}
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", c.From)
	header("To", to)
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", m.Date.Format(time.RFC1123Z))
	header("Message-ID", "<"+hex.EncodeToString(id[:])+"@"+domain+">")
	header("Auto-Submitted", "auto-generated") // RFC 3834: no vacation replies
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(strings.ReplaceAll(m.Body, "\n", "\r\n")))
	_ = qp.Close()
	return b.Bytes()
}

// mail words a message as an e-mail: the body, the table's link, and how
// to stop them.
func (s *Service) mail(m Message, lang string, now time.Time) Mail {
	w := lookup(lang)
	base := strings.TrimRight(s.cfg.BaseURL, "/")
	site := base
	if _, rest, ok := strings.Cut(base, "://"); ok {
		site = rest
	}
	link := m.URL
	if strings.HasPrefix(link, "/") {
		link = base + link
	}
	body := strings.Join([]string{
		m.Body,
		"",
		fmt.Sprintf(w.open, link),
		"",
		"-- ",
		fmt.Sprintf(w.footer, site, base+"/account"),
		"",
	}, "\n")
	return Mail{Subject: m.Title, Body: body, Date: now}
}
