package diag

import "strconv"

// Count writes n and noun, with noun in the plural unless n is 1 ("1
// element", "3 elements"). Messages use it so that no count reads "1
// elements"; nouns with an irregular plural are not passed to it.
func Count(n int64, noun string) string {
	s := strconv.FormatInt(n, 10) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}
