// Command draw writes dicehall's icons (package icons) as PNG files into a
// folder: `go generate ./web` runs it for web/static/icons.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dicehall/dicehall/internal/icons"
)

func main() {
	out := flag.String("out", "web/static/icons", "the folder to write the PNG files into")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, i := range icons.All {
		data, err := i.PNG()
		if err == nil {
			err = os.WriteFile(filepath.Join(*out, i.Name), data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
