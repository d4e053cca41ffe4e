package diag

import (
	"sort"
	"strings"
)

// Closest returns the candidate nearest to name by edit distance (ignoring
// case), if it is near enough to be a likely typo, else "". Candidates equal
// to name are skipped; ties go to the alphabetically first, so the answer
// does not depend on the order of the candidates.
//
// Near enough is relative to the name's length, as in go/types and
// starlark-go: at most one edit in three characters (and one edit for the
// shortest names), so that helper is not taken for a misspelled len.
func Closest(name string, candidates []string) string {
	best, bestD := "", max(1, len(name)/3)+1
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, cand := range sorted {
		if cand == name {
			continue
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(cand)); d < bestD {
			best, bestD = cand, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
