package benchplot

// This file implements `tri bench --plot`: a PNG with one line per launch
// line over the sweep values, in TFLOP/s, GB/s or milliseconds, drawn with
// gonum/plot. The legend goes below the axes, where it hides no data.

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/launch"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

const (
	plotWidth, plotHeight = 10 * vg.Inch, 6 * vg.Inch // the axes; the legend adds to the height
	plotDPI               = 96
	plotMargin            = vg.Length(8) // points
	legendWidth           = 48           // characters of a launch line shown whole in the legend
	maxTickLabels         = 12           // sweep values labelled on the x axis; the others get minor ticks
)

// plotColors are the lines' colours, dark enough to read on white.
var plotColors = plotutil.DarkColors

// Write draws the results of launch.BenchFile into a PNG at path: one line
// per launch line over the sweep values, in the metric b asks for. It is
// launch.BenchOptions.DrawPlot for the command line.
func Write(path, title, sweepName string, b *launch.BenchOptions, rs []launch.BenchResult) error {
	var lines, points []string
	for _, r := range rs {
		if !slices.Contains(lines, r.Launch) {
			lines = append(lines, r.Launch)
		}
		if !slices.Contains(points, r.Point) {
			points = append(points, r.Point)
		}
	}
	ax := newSweepAxis(points)
	yLabel, value := benchMetric(b)

	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = sweepName
	if sweepName == "" {
		p.X.Label.Text = "(no --sweep)"
	}
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(30)
	legend.Padding = vg.Points(4)
	names := legendNames(lines)
	var ys []float64
	for i, l := range lines {
		var xys plotter.XYs
		for _, r := range rs {
			// A zero time would make an infinite rate, which gonum refuses.
			if y := value(r); r.Launch == l && !math.IsNaN(y) && !math.IsInf(y, 0) {
				xys = append(xys, plotter.XY{X: ax.pos[r.Point], Y: y})
				ys = append(ys, y)
			}
		}
		slices.SortStableFunc(xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		col := plotColors[i%len(plotColors)]
		line.Color, line.Width = col, vg.Points(2)
		pts.Color, pts.Shape, pts.Radius = col, plotutil.Shape(i), vg.Points(4)
		if len(xys) > 0 {
			p.Add(line, pts)
		}
		legend.Add(names[i], line, pts)
	}

	switch {
	case ax.log:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.ConstantTicks(ax.ticks)
	case ax.ticks != nil:
		p.X.Tick.Marker = plot.ConstantTicks(ax.ticks)
	}
	// The whole sweep, even where a line has no finite value.
	p.X.Min, p.X.Max = ax.lo, ax.hi
	// Times of a size sweep span decades and read best on a log scale;
	// rates are compared against the hardware's peak, from zero.
	if lo, hi := minMax(ys); b.Flops == "" && b.Bytes == "" && lo > 0 && hi/lo > 16 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	} else {
		// Headroom, so the highest point does not sit on the frame.
		p.Y.Min, p.Y.Max = min(p.Y.Min, 0), p.Y.Max+0.05*(p.Y.Max-min(p.Y.Min, 0))
	}

	legendHeight := legend.Rectangle(draw.Canvas{}).Size().Y
	img := vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight+legendHeight+plotMargin), vgimg.UseDPI(plotDPI))
	c := draw.New(img)
	axes := draw.Crop(c, plotMargin, -plotMargin, legendHeight+2*plotMargin, -plotMargin)
	p.Draw(axes)
	data := p.DataCanvas(axes)
	legend.Draw(draw.Crop(c, data.Min.X, -plotMargin, plotMargin, -(c.Max.Y - plotMargin - legendHeight)))

	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	// Written whole once drawn, so a failed plot leaves no half file.
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// benchMetric is what the plot's y axis shows: the rate asked for (TFLOP/s
// before GB/s, as in the table), else the median time.
func benchMetric(b *launch.BenchOptions) (label string, value func(launch.BenchResult) float64) {
	switch {
	case b.Flops != "":
		return "TFLOP/s", func(r launch.BenchResult) float64 { return r.TFlops }
	case b.Bytes != "":
		return "GB/s", func(r launch.BenchResult) float64 { return r.GBps }
	}
	return "median time (ms)", func(r launch.BenchResult) float64 { return r.Median }
}

// sweepAxis places the sweep values on the x axis: at their value when all
// are numbers, on a log scale when they span more than a factor of 16 (a
// sweep over sizes, usually powers of two), else at their index.
type sweepAxis struct {
	pos          map[string]float64
	lo, hi       float64 // the axis's range
	numeric, log bool
	ticks        []plot.Tick // nil: gonum's default ticks
}

func newSweepAxis(points []string) sweepAxis {
	ax := sweepAxis{pos: map[string]float64{}, numeric: true}
	vals := make([]float64, len(points))
	for i, pt := range points {
		v, ok := sweepNumber(pt)
		if !ok {
			ax.numeric = false
			break
		}
		vals[i] = v
	}
	if !ax.numeric {
		for i := range points {
			vals[i] = float64(i)
		}
	}
	for i, pt := range points {
		ax.pos[pt] = vals[i]
	}
	ax.lo, ax.hi = minMax(vals)
	ax.log = ax.numeric && ax.lo > 0 && ax.hi/ax.lo > 16
	if !ax.numeric {
		ax.lo, ax.hi = -0.5, float64(len(points))-0.5
	}
	// A linear numeric axis has gonum's round ticks, unless one value would
	// leave it with ticks around nothing.
	if ax.numeric && !ax.log && len(points) > 1 {
		return ax
	}
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(vals[i], vals[j]) })
	every := (len(points) + maxTickLabels - 1) / maxTickLabels
	for k, i := range order {
		t := plot.Tick{Value: vals[i]}
		if k%every == 0 {
			t.Label = points[i]
		}
		ax.ticks = append(ax.ticks, t)
	}
	return ax
}

// sweepNumber reads a sweep value as a number: an integer as Go writes one
// (1048576, 1<<20 is not one), or a float.
func sweepNumber(s string) (float64, bool) {
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(n), true
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

func minMax(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	return slices.Min(xs), slices.Max(xs)
}

// logTicks marks 1, 2 and 5 times the powers of ten on a log axis, with the
// other multiples as minor ticks: gonum's LogTicks label only the powers of
// ten, which leaves an axis spanning one or two decades nearly bare.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := int(math.Floor(math.Log10(lo))); math.Pow10(e) <= hi; e++ {
		for m := 1; m < 10; m++ {
			// Parsed rather than multiplied, so 3e-1 is 0.3, not 0.30000000000000004.
			v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", m, e), 64)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// legendNames names each launch line in the legend: the whole line when it
// is short, else the kernel and its grid. Lines that would share a name get
// the arguments that tell them apart, and their number as a last resort.
func legendNames(lines []string) []string {
	names := make([]string, len(lines))
	groups := map[string][]int{}
	for i, l := range lines {
		names[i] = shortLaunch(l)
		groups[names[i]] = append(groups[names[i]], i)
	}
	for i := range lines {
		g := groups[names[i]]
		if len(g) < 2 || names[i] == lines[i] {
			continue
		}
		head, args := splitLaunch(lines[i])
		if head == "" {
			continue
		}
		var differ []string
		for _, a := range args {
			for _, j := range g {
				if _, other := splitLaunch(lines[j]); !slices.Contains(other, a) {
					differ = append(differ, a)
					break
				}
			}
		}
		name := head + "(..."
		for _, a := range differ {
			name += ", " + a
		}
		names[i] = shorten(name+")", 2*legendWidth)
	}
	seen := map[string]int{}
	for _, n := range names {
		seen[n]++
	}
	for i, n := range names {
		if seen[n] > 1 {
			names[i] = fmt.Sprintf("%s #%d", n, i+1)
		}
	}
	return names
}

// shortLaunch is a launch line as the legend first tries to show it.
func shortLaunch(l string) string {
	if len(l) <= legendWidth {
		return l
	}
	if head, _ := splitLaunch(l); head != "" && len(head) <= legendWidth {
		return head
	}
	return shorten(l, legendWidth)
}

// splitLaunch splits kernel[GRID](ARGS) into kernel[GRID] and the arguments
// as written, or returns "" if l is not of that shape.
func splitLaunch(l string) (head string, args []string) {
	open := strings.IndexByte(l, '[')
	if open < 0 {
		return "", nil
	}
	end, _ := brackets(l, open)
	if end < 0 || end+1 >= len(l) || l[end+1] != '(' {
		return "", nil
	}
	last, commas := brackets(l, end+1)
	if last < 0 {
		return "", nil
	}
	start := end + 2
	for _, c := range append(commas, last) {
		if a := strings.TrimSpace(l[start:c]); a != "" {
			args = append(args, a)
		}
		start = c + 1
	}
	return l[:end+1], args
}

// brackets returns the index of the bracket closing the one at s[open] and
// the commas directly inside it, or -1; brackets and commas in string
// literals do not count.
func brackets(s string, open int) (int, []int) {
	var commas []int
	depth := 0
	var quote byte
	for i := open; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth--; depth == 0 {
				return i, commas
			}
		case c == ',' && depth == 1:
			commas = append(commas, i)
		}
	}
	return -1, nil
}

// shorten cuts s to n bytes, ending in "..." where it was cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
