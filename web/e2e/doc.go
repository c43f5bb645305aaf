// Package e2e holds the browser tests of the web client: Debian's chromium,
// driven from go test with chromedp, against the real server and the pages
// embedded in package web. See browser_test.go for how they start and skip.
package e2e
