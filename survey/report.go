package survey

// This file implements the survey's outputs: the table of folders, the
// ranked failure kinds and the CSV.

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Counts are the kernels of a folder (or of the whole survey) and how many
// built; helpers are counted apart.
type Counts struct {
	Kernels, Built, Helpers int
	// Backend are the kernels written for another backend (built or
	// not), Rejected the other failures that Triton rejects too, Launch
	// those of a wrong derived launch and Gap those that are tri's.
	Backend, Rejected, Launch, Gap int
	// BackendBuilt are the kernels of Backend that built.
	BackendBuilt int
}

// Measured are the kernels that target NVIDIA GPUs and that Triton
// compiles (as far as the verdicts know): the kernels less Backend and
// Rejected.
func (c Counts) Measured() int { return c.Kernels - c.Backend - c.Rejected }

// MeasuredBuilt are the kernels of Measured that built.
func (c Counts) MeasuredBuilt() int { return c.Built - c.BackendBuilt }

// MeasuredPercent is MeasuredBuilt as a percentage of Measured (0 for
// none).
func (c Counts) MeasuredPercent() float64 {
	if c.Measured() == 0 {
		return 0
	}
	return 100 * float64(c.MeasuredBuilt()) / float64(c.Measured())
}

// Percent is Built as a percentage of Kernels (0 for none).
func (c Counts) Percent() float64 {
	if c.Kernels == 0 {
		return 0
	}
	return 100 * float64(c.Built) / float64(c.Kernels)
}

func (c *Counts) add(r *Result) {
	switch r.Verdict {
	case VerdictBackend:
		c.Backend++
		if r.Status == Built {
			c.BackendBuilt++
		}
	case VerdictRejected:
		c.Rejected++
	case VerdictLaunch:
		c.Launch++
	case VerdictGap:
		c.Gap++
	}
	switch r.Status {
	case Helper:
		c.Helpers++
	case Built:
		c.Built++
		c.Kernels++
	default:
		c.Kernels++
	}
}

// Total counts every function of the survey.
func (rep *Report) Total() Counts {
	var c Counts
	for _, r := range rep.Results {
		c.add(r)
	}
	return c
}

// Folders counts the functions of each folder, by folder.
func (rep *Report) Folders() map[string]Counts {
	out := map[string]Counts{}
	for _, r := range rep.Results {
		c := out[folderOf(r.File)]
		c.add(r)
		out[folderOf(r.File)] = c
	}
	return out
}

// KindCount is one kind of failure: how many kernels fail with it, and the
// first of them as an example.
type KindCount struct {
	Kind    string
	Count   int
	Example *Result
}

// Kinds ranks the kinds of failure: internal errors first, then by count,
// then by name.
func (rep *Report) Kinds() []KindCount {
	idx := map[string]int{}
	var out []KindCount
	for _, r := range rep.Results {
		if r.Status != Failed {
			continue
		}
		i, ok := idx[r.Kind]
		if !ok {
			i = len(out)
			idx[r.Kind] = i
			out = append(out, KindCount{Kind: r.Kind, Example: r})
		}
		out[i].Count++
	}
	slices.SortStableFunc(out, func(a, b KindCount) int {
		ai, bi := a.Kind == KindInternal, b.Kind == KindInternal
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Kind, b.Kind))
	})
	return out
}

// Print writes the folder table and the ranked kinds (at most top of
// them; 0: all).
func (rep *Report) Print(w io.Writer, top int) error {
	t := rep.Total()
	fmt.Fprintf(w, "%s: %d of %d kernels build (%.1f%%) for %s; %d helpers (built inside their callers)\n",
		rep.Dir, t.Built, t.Kernels, t.Percent(), rep.Arch, t.Helpers)
	fmt.Fprintf(w, "of the %d kernels for NVIDIA GPUs that Triton compiles: %d build (%.1f%%); %d fail by tri's gaps, %d by a wrong derived launch; not counted: %d for another backend (%d build), %d that Triton rejects too\n\n",
		t.Measured(), t.MeasuredBuilt(), t.MeasuredPercent(), t.Gap, t.Launch, t.Backend, t.BackendBuilt, t.Rejected)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "folder\tbuilt\tkernels\t%\thelpers")
	folders := rep.Folders()
	for _, f := range sortedFolders(rep.Results) {
		c := folders[f]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%d\n", f, c.Built, c.Kernels, c.Percent(), c.Helpers)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	kinds := rep.Kinds()
	if len(kinds) == 0 {
		return nil
	}
	if top > 0 && len(kinds) > top {
		kinds = kinds[:top]
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "failure kind\tkernels\texample")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", k.Kind, k.Count, k.Example.Message)
	}
	return tw.Flush()
}

// WriteCSV writes one row per @jit function: file, line, kernel, status,
// kind, message, the element type, launch line and --let bindings of its
// build, every error of a failure (separated by " | "), and the verdict
// with the rule that decided it.
func (rep *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	rows := [][]string{{"file", "line", "kernel", "status", "kind", "message", "pointers", "launch", "lets", "errors", "verdict", "why"}}
	for _, r := range rep.Results {
		rows = append(rows, []string{r.File, strconv.Itoa(r.Line), r.Name, string(r.Status), r.Kind, r.Message, r.Elem, r.Launch, strings.Join(r.Lets, " "), strings.Join(r.Errors, " | "), r.Verdict, r.Why})
	}
	return cw.WriteAll(rows)
}
