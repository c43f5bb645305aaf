package server

import (
	"net/http"
	"strings"
	"testing"
)

// crossSite are the headers of a request another site's page makes: its
// Origin, or only the browser's Fetch Metadata.
var crossSite = []map[string]string{
	{"Origin": "https://evil.example"},
	{"Origin": "null"},
	{"Sec-Fetch-Site": "cross-site"},
	{"Sec-Fetch-Site": "same-site"},
}

// refusesCrossSite sends a request with p's cookies as from each of
// crossSite and wants 403 every time.
func refusesCrossSite(t *testing.T, p *player, method, path, body string) {
	t.Helper()
	for _, h := range crossSite {
		req, _ := http.NewRequest(method, p.ts.http.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := p.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s %s with %v: %d, want 403", method, path, h, resp.StatusCode)
		}
	}
}
