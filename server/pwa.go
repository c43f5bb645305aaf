package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"sync"
	"time"
)

// swVersionMark is the placeholder in static/sw.js that the server fills
// with the version of the static files: the worker names its caches after
// it, so a new build (any file changed) gets fresh caches, and the worker
// itself changes byte for byte, which is how the browser knows to update.
const swVersionMark = "__DICEHALL_SHELL_VERSION__"

// staticVersion is a digest of every file of the static tree (names and
// contents): it changes exactly when a file the browser may keep changes.
func staticVersion(files fs.FS) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// serviceWorker serves /sw.js, the worker of the whole site (its scope is
// /, which a worker served from /static/ could not claim): static/sw.js
// with the static files' version in it, computed once (the tree does not
// change while the server runs).
func (s *Server) serviceWorker() http.HandlerFunc {
	load := sync.OnceValues(func() ([]byte, error) {
		src, err := fs.ReadFile(s.cfg.Static, "sw.js")
		if err != nil {
			return nil, err
		}
		v, err := staticVersion(s.cfg.Static)
		if err != nil {
			return nil, err
		}
		return bytes.Replace(src, []byte(swVersionMark), []byte(v), 1), nil
	})
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := load()
		if err != nil {
			http.Error(w, "the service worker is missing from this build", http.StatusNotFound)
			return
		}
		sum := sha256.Sum256(data)
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:8])+`"`)
		http.ServeContent(w, r, "sw.js", time.Time{}, bytes.NewReader(data))
	}
}

// manifest serves the web app manifest with its media type.
func (s *Server) manifest(w http.ResponseWriter, r *http.Request) {
	data, err := fs.ReadFile(s.cfg.Static, "manifest.webmanifest")
	if err != nil {
		http.Error(w, "the manifest is missing from this build", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/manifest+json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}
