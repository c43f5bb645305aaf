// Package web holds the browser client: plain HTML, CSS and ES modules,
// embedded in the binary. There is no build step: what is in static/ is
// what the browser gets.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var files embed.FS

// Static is the file tree served under /static/ (index.html and table.html
// are the two pages; the server maps / and /t/{id} to them).
func Static() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embed directive guarantees the folder
	}
	return sub
}
