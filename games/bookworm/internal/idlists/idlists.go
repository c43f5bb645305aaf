// Package idlists reads Bookworm's hand-written test lists
// (words/testdata/common.txt, common_fr.txt, precision.txt): one line per
// category, "category-id: item, item, ...", '#' lines and blank lines
// skipped. The words package's tests and the bots' tests read the same
// files through it.
package idlists

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Read returns each category's items (trimmed, empty ones left out) and the
// categories in file order. A line without ':' or a category twice is an
// error naming the file.
func Read(path string) (map[string][]string, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	lists := map[string][]string{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		id, rest, ok := strings.Cut(line, ":")
		if !ok {
			return nil, nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		if _, dup := lists[id]; dup {
			return nil, nil, fmt.Errorf("%s: %s twice", path, id)
		}
		order = append(order, id)
		lists[id] = []string{}
		for _, w := range strings.Split(rest, ",") {
			if w = strings.TrimSpace(w); w != "" {
				lists[id] = append(lists[id], w)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return lists, order, nil
}
