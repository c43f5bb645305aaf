package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/store"
)

// notifyFlags declares serve's notification flags: the VAPID contact and
// the operator's SMTP server.
func notifyFlags(f *pflag.FlagSet) {
	f.StringVar(&serveFlags.vapidSubject, "vapid-subject", "", "contact push services may write to about this server's notifications, mailto:... or https://... (default: --public-url when it is https, else "+notify.DefaultSubject+")")
	f.StringVar(&serveFlags.smtpAddr, "smtp-addr", "", "SMTP server, HOST:PORT, for e-mail notifications (STARTTLS when it offers it; needs --public-url for the links; default: no e-mail)")
	f.StringVar(&serveFlags.smtpFrom, "smtp-from", "", "sender address of e-mail notifications (default: dicehall@ the --public-url's host)")
	f.StringVar(&serveFlags.smtpUser, "smtp-user", "", "user name for the SMTP server (AUTH PLAIN, only over TLS or to this machine)")
	f.StringVar(&serveFlags.smtpPasswordFile, "smtp-password-file", "", "file holding the SMTP password (its first line)")
}

// notifyService makes the notification service from the flags: Web Push
// always (the VAPID keys are made once and kept in the database), e-mail
// when --smtp-addr is set.
func notifyService(ctx context.Context, st store.Store, log *slog.Logger) (*notify.Service, error) {
	public := strings.TrimRight(serveFlags.publicURL, "/")
	cfg := notify.Config{Store: st, Subject: serveFlags.vapidSubject, BaseURL: public, Logger: log}
	if cfg.Subject == "" && strings.HasPrefix(public, "https://") {
		cfg.Subject = public
	}
	if s := cfg.Subject; s != "" && !strings.HasPrefix(s, "mailto:") && !strings.HasPrefix(s, "https://") {
		return nil, fmt.Errorf("--vapid-subject %q: want mailto:... or https://...", s)
	}
	if serveFlags.smtpAddr != "" {
		if public == "" {
			return nil, errors.New("--smtp-addr needs --public-url: e-mails link to the tables")
		}
		m := &notify.SMTP{Addr: serveFlags.smtpAddr, From: serveFlags.smtpFrom, User: serveFlags.smtpUser}
		if m.From == "" {
			u, err := url.Parse(public)
			if err != nil {
				return nil, fmt.Errorf("--public-url: %w", err)
			}
			m.From = "dicehall@" + u.Hostname()
		}
		if serveFlags.smtpPasswordFile != "" {
			data, err := os.ReadFile(serveFlags.smtpPasswordFile)
			if err != nil {
				return nil, fmt.Errorf("--smtp-password-file: %w", err)
			}
			m.Password, _, _ = strings.Cut(string(data), "\n")
			m.Password = strings.TrimRight(m.Password, "\r")
		}
		if err := m.Check(); err != nil {
			return nil, err
		}
		cfg.Mail = m
	} else if serveFlags.smtpFrom != "" || serveFlags.smtpUser != "" || serveFlags.smtpPasswordFile != "" {
		return nil, errors.New("--smtp-from, --smtp-user and --smtp-password-file need --smtp-addr")
	}
	svc, err := notify.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("notifications: %w", err)
	}
	return svc, nil
}
