package words

import "strings"

// irregularFR are French plurals the rules below miss.
var irregularFR = map[string]string{
	"yeux": "oeil", "cieux": "ciel", "aieux": "aieul", "messieurs": "monsieur",
	"mesdames": "madame", "mesdemoiselles": "mademoiselle", "bonshommes": "bonhomme",
}

// singularFR returns the forms a normalized single French word may be the
// plural of: -aux → -al, -ail, -au (chevaux, travaux, tuyaux), -eaux, -eux,
// -oux → drop the x (gâteaux, jeux, bijoux), -s → drop the s (chats).
func singularFR(w string) []string {
	var out []string
	if s, ok := irregularFR[w]; ok {
		out = append(out, s)
	}
	n := len(w)
	switch {
	case n > 3 && strings.HasSuffix(w, "aux"):
		out = append(out, w[:n-3]+"al", w[:n-3]+"ail", w[:n-1])
	case n > 2 && strings.HasSuffix(w, "x"):
		out = append(out, w[:n-1])
	case n > 2 && strings.HasSuffix(w, "s"):
		out = append(out, w[:n-1])
	}
	return out
}

// singularsFR returns the forms a normalized French word or phrase may be
// the plural of. In French every noun and adjective of a phrase takes the
// plural, not only the last ("pommes de terre", "poissons rouges"), so each
// word may be made singular: every combination is tried (at most 64).
func singularsFR(w string) []string {
	words := strings.Fields(w)
	if len(words) == 0 {
		return nil
	}
	forms := [][]string{{}}
	for _, word := range words {
		opts := append([]string{word}, singularFR(word)...)
		var next [][]string
		for _, f := range forms {
			for _, o := range opts {
				if len(next) == 64 {
					break
				}
				next = append(next[:len(next):len(next)], append(f[:len(f):len(f)], o))
			}
		}
		forms = next
	}
	var out []string
	for _, f := range forms {
		if s := strings.Join(f, " "); s != w {
			out = append(out, s)
		}
	}
	return out
}
