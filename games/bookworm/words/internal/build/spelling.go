package build

import "strings"

// spellingPairs are British and American spellings of word endings and
// stems, both ways: colour/color, metre/meter, catalogue/catalog,
// licence/license, paediatrics/pediatrics. A variant is kept only when the
// word lists know it (Variants), so a rule that makes a non-word is harmless.
var spellingPairs = [][2]string{
	{"our", "or"}, {"ours", "ors"}, // colour, harbour, armour
	{"tre", "ter"}, {"bre", "ber"}, {"chre", "cher"}, // metre, theatre, fibre, sabre, ochre
	{"ogue", "og"},                                         // catalogue, analogue
	{"ence", "ense"},                                       // licence, defence, offence
	{"ise", "ize"}, {"isation", "ization"}, {"yse", "yze"}, // organise, paralyse
	{"eller", "eler"}, {"elling", "eling"}, {"llery", "lry"}, // traveller, modelling, jewellery
	{"gramme", "gram"},               // programme, kilogramme
	{"ould", "old"}, {"oult", "olt"}, // mould, moult
	{"ough", "ow"}, // plough
}

// spellingStems are stems spelt with æ or œ in British English.
var spellingStems = [][2]string{
	{"paedi", "pedi"}, {"anaest", "anest"}, {"haem", "hem"}, {"gynaec", "gynec"},
	{"orthopaed", "orthoped"}, {"oesoph", "esoph"}, {"oestr", "estr"}, {"foet", "fet"},
	{"encyclopaed", "encycloped"}, {"archaeo", "archeo"}, {"leukaem", "leukem"},
	{"diarrhoe", "diarrhe"}, {"manoeuv", "maneuv"}, {"palaeo", "paleo"},
}

// Variants returns the other spellings (British for American and the
// other way round) of a normalized word: a word of it that only one of
// Debian's lists holds (known: 1 American only, 2 British only) is replaced
// by a spelling rule's result that only the other list holds. So "colour"
// (British only) gives "color" (American only), while "timber" never gives
// "timbre" nor "miller" "miler": both lists hold both.
func Variants(w string, known map[string]uint8) []string {
	if known == nil {
		return nil
	}
	parts := strings.Fields(w)
	var out []string
	for i, p := range parts {
		for _, v := range tokenVariants(p) {
			if v == p || known[p] == 0 || known[p] == 3 || known[v] != 3^known[p] {
				continue
			}
			q := append([]string(nil), parts...)
			q[i] = v
			out = append(out, strings.Join(q, " "))
		}
	}
	return out
}

func tokenVariants(p string) []string {
	var out []string
	consonantBefore := func(stem string) bool {
		return len(stem) > 1 && !strings.ContainsRune("aeiou", rune(stem[len(stem)-1]))
	}
	for _, pair := range spellingPairs {
		for k := range 2 {
			from, to := pair[k], pair[1-k]
			stem, ok := strings.CutSuffix(p, from)
			if !ok || len(stem) < 2 {
				continue
			}
			if (from == "or" || from == "ors" || from == "our" || from == "ours") && !consonantBefore(stem) {
				continue
			}
			if (from == "ize" || from == "ise") && len(p) <= 5 {
				continue // prize, size
			}
			out = append(out, stem+to)
		}
	}
	for _, pair := range spellingStems {
		for k := range 2 {
			if rest, ok := strings.CutPrefix(p, pair[k]); ok {
				out = append(out, pair[1-k]+rest)
			}
		}
	}
	return out
}
