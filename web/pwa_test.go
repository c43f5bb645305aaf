package web

import (
	"encoding/json"
	"fmt"
	"image/png"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// token is the value of a colour variable of style.css, light (:root) or
// dark (the prefers-color-scheme: dark block).
func token(t *testing.T, name string, dark bool) string {
	t.Helper()
	css := read(t, "style.css")
	at := strings.Index(css, "@media (prefers-color-scheme: dark)")
	if at < 0 {
		t.Fatal("style.css has no dark block")
	}
	part := css[:at]
	if dark {
		part = css[at:]
	}
	m := regexp.MustCompile(`--` + name + `:\s*(#[0-9a-fA-F]{6});`).FindStringSubmatch(part)
	if m == nil {
		t.Fatalf("style.css: no %s value for --%s", map[bool]string{false: "light", true: "dark"}[dark], name)
	}
	return strings.ToLower(m[1])
}

// TestManifest: the web app manifest has what an install needs, in the
// design's colours, and its icons are PNGs of the sizes it says.
func TestManifest(t *testing.T) {
	var m struct {
		Name            string
		ShortName       string `json:"short_name"`
		StartURL        string `json:"start_url"`
		Scope, Display  string
		BackgroundColor string `json:"background_color"`
		ThemeColor      string `json:"theme_color"`
		Icons           []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := json.Unmarshal([]byte(read(t, "manifest.webmanifest")), &m); err != nil {
		t.Fatal(err)
	}
	if m.Name != "dicehall" || m.ShortName == "" || m.StartURL != "/" || m.Scope != "/" || m.Display != "standalone" {
		t.Fatalf("manifest %+v", m)
	}
	if m.BackgroundColor != token(t, "bg", false) || m.ThemeColor != token(t, "topbar", false) {
		t.Fatalf("manifest colours %s/%s, want style.css's --bg and --topbar", m.BackgroundColor, m.ThemeColor)
	}
	purposes := map[string]bool{}
	for _, i := range m.Icons {
		purposes[i.Purpose+" "+i.Sizes] = true
		f, err := Static().Open(strings.TrimPrefix(i.Src, "/static/"))
		if err != nil {
			t.Fatalf("icon %s: %v", i.Src, err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || i.Type != "image/png" || fmt.Sprintf("%dx%d", cfg.Width, cfg.Height) != i.Sizes {
			t.Fatalf("icon %s (%s, %s): %v %dx%d", i.Src, i.Type, i.Sizes, err, cfg.Width, cfg.Height)
		}
	}
	for _, want := range []string{"any 192x192", "any 512x512", "maskable 512x512"} {
		if !purposes[want] {
			t.Errorf("the manifest has no %s icon", want)
		}
	}
}

// TestPagesInstallable: every page links the manifest, says its theme
// colours (the top bar's, light and dark) and registers the service worker.
func TestPagesInstallable(t *testing.T) {
	pages, err := fs.Glob(Static(), "*.html")
	if err != nil || len(pages) < 7 {
		t.Fatalf("pages %v (%v)", pages, err)
	}
	want := []string{
		`<link rel="manifest" href="/manifest.webmanifest">`,
		`<meta name="theme-color" content="` + token(t, "topbar", false) + `" media="(prefers-color-scheme: light)">`,
		`<meta name="theme-color" content="` + token(t, "topbar", true) + `" media="(prefers-color-scheme: dark)">`,
		`<script type="module" src="/static/sw-register.js"></script>`,
	}
	for _, p := range pages {
		src := read(t, p)
		for _, w := range want {
			if !strings.Contains(src, w) {
				t.Errorf("%s lacks %s", p, w)
			}
		}
	}
}

// TestWorkerPrecache: every file the service worker fetches at install is
// in the build (one missing file would fail the whole install), and the
// worker carries the mark the server fills with the version.
func TestWorkerPrecache(t *testing.T) {
	src := read(t, "sw.js")
	if !strings.Contains(src, "const VERSION = '__DICEHALL_SHELL_VERSION__';") {
		t.Fatal("sw.js lost its version mark (server/pwa.go fills it)")
	}
	start := strings.Index(src, "const PRECACHE = [")
	end := strings.Index(src[start:], "];")
	if start < 0 || end < 0 {
		t.Fatal("sw.js: no PRECACHE list")
	}
	urls := regexp.MustCompile(`'(/[^']*)'`).FindAllStringSubmatch(src[start:start+end], -1)
	if len(urls) < 5 {
		t.Fatalf("PRECACHE has %d entries", len(urls))
	}
	for _, u := range urls {
		name := strings.TrimPrefix(u[1], "/static/")
		switch u[1] {
		case "/offline.html":
			name = "offline.html"
		case "/manifest.webmanifest":
			name = "manifest.webmanifest"
		}
		if _, err := fs.Stat(Static(), name); err != nil || name == u[1] {
			t.Errorf("sw.js precaches %s, which the server does not serve from the build", u[1])
		}
	}
}
