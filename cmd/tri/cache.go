package main

// This file implements tri cache: where tri's on-disk caches are, how much
// they hold, and emptying them.

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/internal/cachedir"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/nvrtc"
)

// diskCache is one of tri's on-disk caches, as tri cache shows it.
type diskCache struct {
	name, what string
	dir        string
	owns       func(name string) bool // the files the cache wrote
}

// diskCaches lists tri's caches, with the folders the environment gives
// them now. Each owner package says where its cache is and which files
// are its own.
func diskCaches() []diskCache {
	cubin := ""
	if c := nvrtc.DefaultCache(); c != nil {
		cubin = c.Dir
	}
	return []diskCache{
		{"cubin", "CUDA compiled by NVRTC: cubins, PTX and NVRTC's logs", cubin, nvrtc.IsCacheFile},
		{"autotune", "the config @triton.autotune chose for each kernel and key", autotune.DefaultCacheDir(), autotune.IsCacheFile},
	}
}

// cacheHelp is tri cache's help; its list of caches is diskCaches'.
func cacheHelp() string {
	var b strings.Builder
	b.WriteString("tri keeps its caches on disk, each a folder under one root:\n\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, dc := range diskCaches() {
		fmt.Fprintf(w, "  %s\t%s\n", dc.name, dc.what)
	}
	w.Flush()
	b.WriteString(`
The root is $TRI_CACHE_DIR when set, else tri under the user's cache folder
($XDG_CACHE_HOME, else ~/.cache, on Linux). $TRI_AUTOTUNE_CACHE, when set,
moves the autotune cache alone. Entries are keyed by what they were made
from (source, options, NVRTC and tri versions, GPU), so a stale entry is
never used: clean only frees the disk.`)
	return b.String()
}

func newCache() *cobra.Command {
	c := &cobra.Command{
		Use:   "cache (where [NAME] | size | clean [NAME]...)",
		Short: "Show, measure or empty tri's on-disk caches",
		Long:  cacheHelp(),
		Args:  cacheSubcommand,
		RunE:  func(c *cobra.Command, args []string) error { return c.Help() },
		// cobra sets this default only on its own path to suggestions.
		SuggestionsMinimumDistance: 2,
	}
	c.AddCommand(&cobra.Command{
		Use:   "where [NAME]",
		Short: "Print each cache's folder, or the folder of cache NAME alone",
		Long: `Print each cache's folder, or with NAME (cubin or autotune) that folder
alone, for scripts: ls "$(tri cache where cubin)". The folder need not exist
yet.`,
		Args: rangeArgs(0, 1, "cache where [NAME]"),
		RunE: func(c *cobra.Command, args []string) error {
			caches, err := pickCaches(args)
			if err != nil {
				return err
			}
			if len(args) == 1 {
				if caches[0].dir == "" {
					return fmt.Errorf("no folder for the %s cache: neither $%s nor a user cache folder ($HOME) is set", caches[0].name, cachedir.Env)
				}
				fmt.Fprintln(c.OutOrStdout(), caches[0].dir)
				return nil
			}
			w := tabwriter.NewWriter(c.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, dc := range caches {
				fmt.Fprintf(w, "%s\t%s\t%s\n", dc.name, orNone(dc.dir), dc.what)
			}
			return w.Flush()
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "size",
		Short: "Print the files and bytes each cache holds",
		Args:  exactArgs(0, "cache size"),
		RunE: func(c *cobra.Command, args []string) error {
			w := tabwriter.NewWriter(c.OutOrStdout(), 0, 0, 2, ' ', 0)
			var files int
			var bytes int64
			for _, dc := range diskCaches() {
				n, b, err := cachedir.Usage(dc.dir, dc.owns)
				if err != nil {
					return fmt.Errorf("%s cache: %w", dc.name, err)
				}
				files, bytes = files+n, bytes+b
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", dc.name, hosteval.Plural(n, "file"), interp.FormatBytes(b), orNone(dc.dir))
			}
			fmt.Fprintf(w, "total\t%s\t%s\n", hosteval.Plural(files, "file"), interp.FormatBytes(bytes))
			return w.Flush()
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "clean [NAME]...",
		Short: "Remove the entries of every cache, or of the caches named",
		Long: `Remove the entries of every cache, or of the caches named (cubin,
autotune). Only the files a cache writes are removed; anything else in its
folder stays, and so does the folder then.`,
		RunE: func(c *cobra.Command, args []string) error {
			caches, err := pickCaches(args)
			if err != nil {
				return err
			}
			for _, dc := range caches {
				n, b, err := cachedir.Clean(dc.dir, dc.owns)
				if err != nil {
					return fmt.Errorf("%s cache: %w", dc.name, err)
				}
				fmt.Fprintf(c.OutOrStdout(), "%s: removed %s (%s) from %s\n", dc.name, hosteval.Plural(n, "file"), interp.FormatBytes(b), orNone(dc.dir))
			}
			return nil
		},
	})
	return c
}

// cacheSubcommand refuses tri cache with a word that names no subcommand.
func cacheSubcommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q (want where, size or clean)", args[0], c.CommandPath())
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError("%s", msg)
}

// pickCaches returns the caches named, in the order given, or all of them
// for no names.
func pickCaches(names []string) ([]diskCache, error) {
	all := diskCaches()
	if len(names) == 0 {
		return all, nil
	}
	var out []diskCache
	for _, n := range names {
		i := slices.IndexFunc(all, func(dc diskCache) bool { return dc.name == n })
		if i < 0 {
			return nil, usageError("no cache named %q; tri's caches are cubin and autotune", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// orNone shows an unknown folder.
func orNone(dir string) string {
	if dir == "" {
		return "(none: no " + cachedir.Env + " and no user cache folder)"
	}
	return dir
}
