package words

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/bookworm/internal/idlists"
)

// precisionSample is how many words of each category are judged by hand.
const precisionSample = 10

// committedPrecision is the measured precision of the lexicon, in words per
// thousand: the share of the judged sample (testdata/precision.txt) that are
// members of their category. The test fails when it drops below.
const committedPrecision = 957

// sampleWords draws the category's precision sample: the precisionSample
// words whose FNV-1a hash (of "id\x00word") is smallest. The hash is a fixed,
// seeded-by-construction shuffle: the sample is random with respect to the
// words' meaning, and it is stable when the lexicon changes elsewhere (an
// added word enters the sample only if its hash is among the smallest), so
// judgments stay valid across regenerations.
func sampleWords(id string, list []string) []string {
	type hw struct {
		h uint64
		w string
	}
	var all []hw
	for _, w := range list {
		f := fnv.New64a()
		f.Write([]byte(id + "\x00" + w))
		all = append(all, hw{f.Sum64(), w})
	}
	slices.SortFunc(all, func(a, b hw) int {
		if a.h != b.h {
			if a.h < b.h {
				return -1
			}
			return 1
		}
		return strings.Compare(a.w, b.w)
	})
	var out []string
	for i := 0; i < len(all) && i < precisionSample; i++ {
		out = append(out, all[i].w)
	}
	return out
}

// readJudged reads testdata/precision.txt: "id: word +, word -, ..." where +
// means a member of the category as its card names it and - not.
func readJudged(t *testing.T) map[string]map[string]bool {
	t.Helper()
	lists, _, err := idlists.Read("testdata/precision.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for id, items := range lists {
		out[id] = map[string]bool{}
		for _, item := range items {
			switch {
			case strings.HasSuffix(item, " +"):
				out[id][strings.TrimSuffix(item, " +")] = true
			case strings.HasSuffix(item, " -"):
				out[id][strings.TrimSuffix(item, " -")] = false
			default:
				t.Fatalf("precision.txt: %s: %q is neither \"word +\" nor \"word -\"", id, item)
			}
		}
	}
	return out
}

// TestPrecision measures the precision of the lexicon on a random sample of
// each category (sampleWords) judged by hand in testdata/precision.txt. A
// sampled word nobody has judged fails the test with the line to write, so
// the figure always covers the whole sample. go test -run Precision -v prints
// the figure and every word judged not to fit.
func TestPrecision(t *testing.T) {
	judged := readJudged(t)
	lx := Default()
	total, members := 0, 0
	var todo []string
	for _, card := range Deck() {
		for _, c := range card.Categories {
			var missing, wrong []string
			for _, w := range sampleWords(c.ID, lx.Words(c.ID)) {
				ok, done := judged[c.ID][w]
				switch {
				case !done:
					missing = append(missing, w)
				case ok:
					total++
					members++
				default:
					total++
					wrong = append(wrong, w)
				}
			}
			if len(missing) > 0 {
				todo = append(todo, fmt.Sprintf("%s (%s): %s", c.ID, c.Name, strings.Join(missing, ", ")))
			}
			if len(wrong) > 0 {
				t.Logf("%s: judged not to fit: %s", c.ID, strings.Join(wrong, ", "))
			}
		}
	}
	if len(todo) > 0 {
		t.Errorf("%d categories have sampled words nobody judged; add them to testdata/precision.txt as \"word +\" (a member) or \"word -\":\n%s", len(todo), strings.Join(todo, "\n"))
	}
	if total == 0 {
		return
	}
	got := 1000 * members / total
	t.Logf("precision: %d of %d sampled words are members of their category (%.1f%%)", members, total, 100*float64(members)/float64(total))
	if got < committedPrecision {
		t.Errorf("precision %d‰ is below the committed %d‰ (committedPrecision)", got, committedPrecision)
	}
}
