package review

// This file implements Build: preparing a launch, generating its CUDA and
// gathering what the page shows.

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/version"
)

// Options control what Build does beyond tri build's work.
type Options struct {
	// Launch prepares the launch as tri build does (target, --let,
	// --config, --num-warps, roots); nil is the defaults.
	Launch *launch.Options
	// Check runs the launch as tri run --check does (on the GPU and in the
	// interpreter, compared) and shows the result on the page.
	Check bool
	// NoNVRTC leaves out ptxas's report even where NVRTC is found.
	NoNVRTC bool
}

// Page is everything a review page shows; Write renders it.
type Page struct {
	Title   string
	Version string
	File    string // the kernel's file, as given
	Kernel  string
	Arch    string
	Launch  string // the launch line (the file's header's when none was given)
	Lets    []string
	Grid    [3]int
	Config  int // the autotune config bound, -1 for none
	Warps   int
	Stages  int
	Threads int
	Spec    []ir.SpecEntry
	Params  []cudagen.Param

	Source []SourceLine
	CUDA   []CUDALine
	// LineMap is the JSON of the links between the panes, for the page's
	// script: "s" maps a source line to its CUDA lines, "c" a CUDA line to
	// its source line (0: none).
	LineMap template.JS

	Layouts     []LayoutView
	Tiles       []TileView
	Conversions int
	Loops       []LoopView

	Resources *Resources
	// NoResources says why there is no ptxas report ("" where there is).
	NoResources string
	Check       *CheckResult
	CSS         template.CSS
}

// SourceLine is one line of the kernel's file.
type SourceLine struct {
	N    int
	HTML template.HTML
	// CUDA is the number of CUDA lines generated for it.
	CUDA int
	// SASS is the number of SASS instructions ptxas's line info gives it
	// (0: none, or no line info).
	SASS int
	// Heat is SASS as a share of the kernel's busiest line, 0 to 100.
	Heat int
}

// CUDALine is one line of the generated CUDA.
type CUDALine struct {
	N    int
	HTML template.HTML
	Src  int    // the kernel file's line it comes from, 0 for none
	From string // file:line of a line from another file (an imported @jit helper)
	// Odd marks the lines of every other source statement, for banding.
	Odd bool
}

// LayoutView is a layout with its picture and the tiles that use it.
type LayoutView struct {
	cudagen.TileLayout
	Picture layoutPicture
	Tiles   []TileView
}

// TileView is a tile value with the source line it comes from.
type TileView struct {
	cudagen.Tile
	Line int // in the kernel's file; 0 for another file
}

// LoopView is a loop with a dot and its plan in words.
type LoopView struct {
	cudagen.Loop
	Line    int
	Words   []string
	Diagram template.HTML
}

// CheckResult is what tri run --check printed and whether it passed.
type CheckResult struct {
	Output string
	Err    string
}

// Build prepares the launch of path (line, or the file's header's when
// empty) as tri build does, generates its CUDA and gathers the page.
func Build(path, line string, o Options) (*Page, error) {
	lo := launch.Options{}
	if o.Launch != nil {
		lo = *o.Launch
	}
	lo.Stdout, lo.Stderr = &bytes.Buffer{}, &bytes.Buffer{}
	// The page reads the tensors' dtypes and shapes, not their elements,
	// which are then never made (the check below makes its own).
	po := lo
	po.DeferData = true
	prep, err := launch.Prepare(path, line, &po)
	if err != nil {
		return nil, err
	}
	k := prep.Kernel
	arch := gpu.TargetArch(lo.Arch)
	copt := cudagen.Options{Arch: arch}
	res, err := cudagen.Generate(k, copt)
	if err != nil {
		return nil, err
	}
	desc, err := cudagen.Describe(k, copt)
	if err != nil {
		return nil, err
	}
	pg := &Page{Title: fmt.Sprintf("%s: %s", filepath.Base(k.File), k.Name), Version: version.Version, File: k.File, Kernel: k.Name,
		Arch: arch, Launch: prep.Launch.Src, Lets: lo.Lets, Grid: prep.Grid, Config: prep.Config, Warps: desc.NumWarps,
		Stages: k.NumStages, Threads: desc.Threads, Spec: k.Spec, Params: res.Params, Conversions: desc.Conversions, CSS: chromaCSS()}
	if pg.Launch == "" {
		if s, err := launch.ParseSampleHeader(path, prep.Source.Text); err == nil {
			pg.Launch, pg.Lets = s.Launch, append(slices.Clone(s.Lets), lo.Lets...)
		}
	}
	pg.panes(k, res)
	pg.plan(desc)
	var sass map[int]int
	if o.NoNVRTC {
		pg.NoResources = "not asked for"
	} else {
		pg.Resources, sass, pg.NoResources = report(k, res, arch)
	}
	pg.heat(sass)
	if o.Check {
		pg.Check = check(path, line, lo)
	}
	return pg, nil
}

// panes fills the two panes and the line map between them from the
// CUDA's line map (Result.Lines).
func (pg *Page) panes(k *ir.Kernel, res *cudagen.Result) {
	src := highlight(k.Source, "python")
	for i, h := range src {
		pg.Source = append(pg.Source, SourceLine{N: i + 1, HTML: h})
	}
	toCUDA := map[int][]int{}
	toSrc := make([]int, 0, len(res.Lines))
	odd, last := false, ir.Pos{}
	for i, h := range highlight(res.Source, "c++") {
		l := CUDALine{N: i + 1, HTML: h}
		if pos, ok := res.SourceLine(i + 1); ok {
			if pos.Line != last.Line || pos.File != last.File {
				odd, last = !odd, pos
			}
			l.Odd = odd
			if pos.File == k.File && pos.Line <= len(pg.Source) {
				l.Src = pos.Line
				toCUDA[pos.Line] = append(toCUDA[pos.Line], l.N)
				pg.Source[pos.Line-1].CUDA++
			} else {
				l.From = fmt.Sprintf("%s:%d", pos.File, pos.Line)
			}
		}
		toSrc = append(toSrc, l.Src)
		pg.CUDA = append(pg.CUDA, l)
	}
	pg.LineMap = lineMapJSON(toCUDA, toSrc)
}

// lineMapJSON writes the line map for the page's script: {"s": {"12":
// [40, 41]}, "c": [0, 0, 12, ...]}. Only numbers go in, so no escaping is
// needed.
func lineMapJSON(toCUDA map[int][]int, toSrc []int) template.JS {
	var b strings.Builder
	b.WriteString(`{"s":{`)
	keys := make([]int, 0, len(toCUDA))
	for k := range toCUDA {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":[`, k)
		for j, c := range toCUDA[k] {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, c)
		}
		b.WriteByte(']')
	}
	b.WriteString(`},"c":[`)
	for i, s := range toSrc {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, s)
	}
	b.WriteString("]}")
	return template.JS(b.String())
}

// plan fills the layouts, tiles and loops from cudagen's description.
func (pg *Page) plan(desc *cudagen.Description) {
	line := func(p ir.Pos) int {
		if p.File == pg.File {
			return p.Line
		}
		return 0
	}
	byTag := map[string]int{}
	for _, l := range desc.Layouts {
		byTag[l.Tag] = len(pg.Layouts)
		pg.Layouts = append(pg.Layouts, LayoutView{TileLayout: l, Picture: drawLayout(l)})
	}
	for _, t := range desc.Tiles {
		tv := TileView{Tile: t, Line: line(t.Pos)}
		tv.Notes = strings.TrimSpace(tv.Notes)
		pg.Tiles = append(pg.Tiles, tv)
		if i, ok := byTag[t.Layout]; ok {
			pg.Layouts[i].Tiles = append(pg.Layouts[i].Tiles, tv)
		}
	}
	for _, l := range desc.Loops {
		pg.Loops = append(pg.Loops, LoopView{Loop: l, Line: line(l.Pos), Words: loopWords(l), Diagram: drawPipeline(l)})
	}
}

// formWords says where each Form of a pipelined loop's operand (other
// than streamed) comes from, as cudagen.Operand lists them.
var formWords = map[string]string{
	"stored once":  "stored into shared memory once, before the loop",
	"in place":     "in shared memory already: the pipelined loop before this one stored it there",
	"in registers": "read from registers",
	"staged":       "stored into shared memory where its dot stands, in every iteration",
}

// loopWords says a loop's plan in sentences.
func loopWords(l cudagen.Loop) []string {
	if !l.Pipelined {
		return []string{"Not software-pipelined: " + l.Why + "."}
	}
	var streamed, other []string
	copies := map[string]bool{}
	for _, o := range l.Operands {
		if o.Form == "streamed" {
			streamed = append(streamed, o.Name)
			copies[o.Copy] = true
			continue
		}
		other = append(other, fmt.Sprintf("%s is %s", o.Name, formWords[o.Form]))
	}
	var how []string
	for _, c := range []string{"cp.async", "cp.async by rows", "TMA"} {
		if copies[c] {
			how = append(how, c)
		}
	}
	per := 0
	if l.Buffers > 0 {
		per = l.SharedBytes / l.Buffers
	}
	out := []string{fmt.Sprintf("Software-pipelined on %s at num_stages=%d: the loads of %s are copied by %s %s ahead into %d shared-memory buffers (%s of shared memory, about %s per buffer).",
		l.Engine, l.Stages, strings.Join(streamed, ", "), strings.Join(how, " and "), plural(l.Stages-1, "iteration"), l.Buffers, bytesText(l.SharedBytes), bytesText(per))}
	if len(other) > 0 {
		out = append(out, "Of the other operands, "+strings.Join(other, "; ")+".")
	}
	flight := fmt.Sprintf("When the dots of iteration i issue, the copies for iterations i+1 to i+%d are in flight", l.Stages-1)
	if l.Stages == 2 {
		flight = "When the dots of iteration i issue, the copies for iteration i+1 are in flight"
	}
	if l.InFlight != "" {
		flight += fmt.Sprintf(", and the wgmma of %s from iteration i-1 may still run (its buffer is the extra one)", l.InFlight)
	}
	out = append(out, flight+".")
	switch {
	case l.Spill:
		out = append(out, fmt.Sprintf("num_stages=%d was asked for; it runs %d stages: the kernel's accumulators overflow the registers, "+
			"and the shared memory more stages would take is left to L1, where the spills go.", l.Asked, l.Stages))
	case l.Asked > 0:
		out = append(out, fmt.Sprintf("num_stages=%d was asked for; only %d stages fit in shared memory.", l.Asked, l.Stages))
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// bytesText writes a size in bytes or KiB.
func bytesText(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n/1024)
	}
	if n >= 1024 {
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// heat sets each source line's SASS count and its share of the largest.
func (pg *Page) heat(sass map[int]int) {
	most := 0
	for _, n := range sass {
		most = max(most, n)
	}
	for i := range pg.Source {
		n := sass[pg.Source[i].N]
		pg.Source[i].SASS = n
		if most > 0 {
			pg.Source[i].Heat = n * 100 / most
		}
	}
}

// check runs the launch as tri run --check does, capturing what it
// prints.
func check(path, line string, lo launch.Options) *CheckResult {
	var out bytes.Buffer
	lo.Stdout, lo.Stderr, lo.Check, lo.Interpret = &out, &out, true, false
	if lo.Timeout == 0 {
		lo.Timeout = time.Minute
	}
	r := &CheckResult{}
	if err := launch.RunFile(path, line, &lo); err != nil {
		r.Err = err.Error()
	}
	r.Output = out.String()
	return r
}

// errNothing is Write's error for a nil page or writer.
var errNothing = errors.New("review: no page or no writer (nil)")
