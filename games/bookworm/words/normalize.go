package words

import "github.com/dicehall/dicehall/games/bookworm/words/internal/normal"

// Normalize returns the form in which words are compared: for lookups in the
// lexicon and for "already named this round". Two spellings a table would
// call the same word normalize alike:
//
//   - case is folded to lower case;
//   - diacritics are stripped (canonical decomposition, then combining marks
//     dropped: "Crème Brûlée" → "creme brulee"), and a few letters with no
//     decomposition are spelled out (ß → ss, æ → ae, œ → oe, ø → o, ł → l,
//     đ → d, ð → d, þ → th, ı → i);
//   - apostrophes (' ’ ‘ ʼ ` ´) and full stops are removed, so possessives and
//     abbreviations match their bare spelling: "shepherd's pie" →
//     "shepherds pie", "St. Bernard" → "st bernard";
//   - hyphens, dashes, underscores, slashes and any other punctuation,
//     symbol or white space separate words: "X-ray", "x ray" and "x_ray" all
//     become "x ray" (WordNet writes compounds both ways, and so do people);
//   - separators are collapsed to one space and trimmed.
//
// Letters and digits are otherwise kept, so "icecream" and "ice cream" stay
// different words. Normalize is idempotent.
func Normalize(word string) string { return normal.Normalize(word) }
