package server

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// TestServiceWorkerAndManifest: /sw.js is the worker with the static
// files' version filled in, served as JavaScript under the site's policy
// (worker-src 'self') and answered 304 when unchanged; the manifest has its
// media type; the offline page is a page.
func TestServiceWorkerAndManifest(t *testing.T) {
	ts := startServer(t, Config{})
	get := func(path string, hdr ...string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.http.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	resp, sw := get("/sw.js")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("/sw.js: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if strings.Contains(sw, swVersionMark) || !regexp.MustCompile(`const VERSION = '[0-9a-f]{16}';`).MatchString(sw) {
		t.Fatalf("/sw.js does not carry the static version:\n%.300s", sw)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "worker-src 'self'") || !strings.Contains(csp, "manifest-src 'self'") {
		t.Fatalf("policy %q", csp)
	}
	if resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("ETag") == "" {
		t.Fatalf("/sw.js headers %v", resp.Header)
	}
	if again, _ := get("/sw.js", "If-None-Match", resp.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
		t.Fatalf("/sw.js with its ETag: %d", again.StatusCode)
	}
	resp, _ = get("/manifest.webmanifest")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, page := get("/offline.html")
	if resp.StatusCode != 200 || !strings.Contains(page, "/static/offline.js") {
		t.Fatalf("/offline.html: %d", resp.StatusCode)
	}
}

// TestStaticVersion follows the files: any change to a name or a content
// changes it, and the same tree gives the same version.
func TestStaticVersion(t *testing.T) {
	tree := fstest.MapFS{"a.js": {Data: []byte("1")}, "icons/b.png": {Data: []byte("2")}}
	v1, err := staticVersion(tree)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := staticVersion(tree); v != v1 {
		t.Fatalf("the same tree gave %s and %s", v1, v)
	}
	tree["icons/b.png"] = &fstest.MapFile{Data: []byte("3")}
	if v, _ := staticVersion(tree); v == v1 {
		t.Fatal("a changed file kept the version")
	}
	delete(tree, "icons/b.png")
	tree["icons/c.png"] = &fstest.MapFile{Data: []byte("2")}
	if v, _ := staticVersion(tree); v == v1 {
		t.Fatal("a renamed file kept the version")
	}
}
