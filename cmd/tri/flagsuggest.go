package main

import (
	"errors"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
)

// flagError is the root's flag error function: every flag error is bad
// input (exit 2), and an unknown --flag names the flag meant, when one of
// the command's is a likely typo of it (--interpet: --interpret), or the
// commands that have it (tri build --interpret: a flag of tri run).
func flagError(c *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedName() == "" {
		return hosteval.Usage(err)
	}
	if group := unknown.GetSpecifiedShortnames(); group != "" {
		// -interpret, as Go's flag package spells flags, is read as the
		// shorthands -i -n ...: say what was meant.
		long, _, _ := strings.Cut(group, "=")
		if c.Flags().Lookup(long) != nil {
			return usageError("%v; did you mean --%s?", err, long)
		}
		return hosteval.Usage(err)
	}
	name := unknown.GetSpecifiedName()
	if s := diag.Closest(name, flagNames(c)); s != "" {
		return usageError("%v; did you mean --%s?", err, s)
	}
	var others []string
	for _, o := range c.Root().Commands() {
		if o != c && o.Flags().Lookup(name) != nil {
			others = append(others, "tri "+o.Name())
		}
	}
	if len(others) > 0 {
		sort.Strings(others)
		return usageError("%v (a flag of %s, not of %s)", err, joinOr(others), c.CommandPath())
	}
	return hosteval.Usage(err)
}

// flagNames lists the long names of the flags c accepts.
func flagNames(c *cobra.Command) []string {
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	c.Flags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	return names
}

// joinOr joins names as "a", "a or b", "a, b or c".
func joinOr(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
