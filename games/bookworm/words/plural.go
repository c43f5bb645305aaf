package words

import "strings"

// irregular plurals people say at a table (the regular rules below cover
// the rest; WordNet's own list has thousands of Latin and Greek ones).
var irregular = map[string]string{
	"children": "child", "people": "person", "oxen": "ox", "feet": "foot",
	"teeth": "tooth", "geese": "goose", "mice": "mouse", "lice": "louse",
	"dice": "die", "women": "woman", "men": "man", "brethren": "brother",
	"cacti": "cactus", "fungi": "fungus", "octopi": "octopus", "hippopotami": "hippopotamus",
	"radii": "radius", "stimuli": "stimulus", "alumni": "alumnus", "larvae": "larva",
	"antennae": "antenna", "vertebrae": "vertebra", "algae": "alga", "formulae": "formula",
	"bacteria": "bacterium", "criteria": "criterion", "phenomena": "phenomenon",
	"indices": "index", "appendices": "appendix", "matrices": "matrix", "vertices": "vertex",
	"data": "datum", "media": "medium", "dominoes": "domino", "potatoes": "potato",
	"tomatoes": "tomato", "heroes": "hero", "volcanoes": "volcano", "mosquitoes": "mosquito",
	"buffaloes": "buffalo", "mangoes": "mango", "echoes": "echo", "torpedoes": "torpedo",
	"calves": "calf", "halves": "half", "knives": "knife", "leaves": "leaf", "lives": "life",
	"loaves": "loaf", "scarves": "scarf", "selves": "self", "sheaves": "sheaf",
	"shelves": "shelf", "thieves": "thief", "wives": "wife", "wolves": "wolf", "hooves": "hoof",
	"elves": "elf", "dwarves": "dwarf", "wharves": "wharf",
}

// Singulars returns the forms a normalized word may be the plural of, most
// likely first: the last word of a phrase is made singular ("fire engines" →
// "fire engine"). It guesses by the regular rules (-s, -es, -ies, -ves, -men)
// and a short list of irregular plurals; a guess that is not a word is
// harmless, since a caller only looks the guesses up.
func Singulars(w string) []string {
	head, last := "", w
	if i := strings.LastIndexByte(w, ' '); i >= 0 {
		head, last = w[:i+1], w[i+1:]
	}
	var out []string
	add := func(s string) {
		if s != "" && s != last {
			out = append(out, head+s)
		}
	}
	if s, ok := irregular[last]; ok {
		add(s)
	}
	n := len(last)
	switch {
	case n > 3 && strings.HasSuffix(last, "men"):
		add(last[:n-3] + "man")
	case n > 4 && strings.HasSuffix(last, "ies"):
		add(last[:n-3] + "y")
		add(last[:n-1])
	case n > 4 && strings.HasSuffix(last, "ves"):
		add(last[:n-3] + "f")
		add(last[:n-3] + "fe")
		add(last[:n-1])
	case n > 3 && strings.HasSuffix(last, "es"):
		add(last[:n-1])
		add(last[:n-2])
	case n > 2 && strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss"):
		add(last[:n-1])
	}
	return out
}
