package ir

// This file implements Inspect, a walk over every value of a block tree.

// Inspect calls f for every Value defined in b and in the blocks nested in
// it (loop bodies, while conditions, if branches), in program order. Values
// used by an Assign, For, While or If are defined by statements before it,
// so each Value is seen once. The bodies of custom combine regions are not
// entered: inspect Value.Region.Body for those.
func Inspect(b *Block, f func(*Value)) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *Value:
			f(s)
		case *For:
			Inspect(s.Body, f)
		case *While:
			Inspect(s.Cond, f)
			Inspect(s.Body, f)
		case *If:
			Inspect(s.Then, f)
			Inspect(s.Else, f)
		}
	}
}
