package launch

// This file implements `tri bench`: do_bench-style timing of launches on the
// GPU.

import (
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/nvrtc"
)

// BenchOptions are `tri bench`'s own settings.
type BenchOptions struct {
	Warmup, Rep time.Duration // time spent warming up and measuring (default 25 ms, 100 ms)
	Sweep       string        // NAME=V1,V2,...: rebinds --let NAME
	Bytes       string        // expression over the bindings: bytes moved per launch
	Flops       string        // expression over the bindings: flops per launch
	Compare     []string      // more launch lines, timed the same way
	CSV         string        // write the table here
	Plot        string        // write a PNG plot here, with DrawPlot
	// DrawPlot draws the results into the PNG at Plot (the command line
	// passes benchplot.Write), so that launch does not link a plotting
	// library; Plot without DrawPlot is an error.
	DrawPlot func(path, title, sweepName string, b *BenchOptions, rs []BenchResult) error
}

// BenchResult is the timing of one launch line at one sweep point.
type BenchResult struct {
	Launch       string
	Point        string // the sweep value, "" without a sweep
	Median       float64
	P20, P80     float64 // quantiles, ms
	Reps         int
	GBps, TFlops float64 // 0 if not asked for
}

// l2FlushBytes is larger than any GPU's L2 cache; the buffer is cleared
// before every timed repetition, as triton.testing.do_bench does.
const l2FlushBytes = 256 << 20

// BenchFile times path's launch lines on the GPU and prints a table. A nil
// o or b means the defaults.
func BenchFile(path, line string, o *Options, b *BenchOptions) ([]BenchResult, error) {
	o = o.orDefault()
	if b == nil {
		b = &BenchOptions{}
	}
	if b.Plot != "" && b.DrawPlot == nil {
		return nil, hosteval.Usage(fmt.Errorf("--plot %s: no plotter given (BenchOptions.DrawPlot)", b.Plot))
	}
	for _, out := range [][2]string{{"--csv ", b.CSV}, {"--plot ", b.Plot}} {
		if out[1] != "" {
			if err := hosteval.CheckOutput(out[0]+out[1], out[1], path); err != nil {
				return nil, err
			}
		}
	}
	if b.Warmup <= 0 {
		b.Warmup = 25 * time.Millisecond
	}
	if b.Rep <= 0 {
		b.Rep = 100 * time.Millisecond
	}
	points := []string{""}
	sweepName := ""
	if b.Sweep != "" {
		name, vals, ok := strings.Cut(b.Sweep, "=")
		if !ok || name == "" || vals == "" {
			return nil, hosteval.Usage(fmt.Errorf("--sweep %q: want NAME=V1,V2,...", b.Sweep))
		}
		sweepName, points = strings.TrimSpace(name), strings.Split(vals, ",")
	}
	dev, err := gpu.Device()
	if err != nil {
		return nil, err
	}
	if _, err := resolveTarget(o); err != nil {
		return nil, err
	}
	flush, err := dev.Alloc(l2FlushBytes)
	if err != nil {
		return nil, err
	}
	defer dev.Free(flush)
	if line == "" && len(b.Compare) > 0 {
		// The header's launch and bindings (with --let over them) serve
		// the --compare lines too.
		s, err := ReadSample(path)
		if err != nil {
			return nil, err
		}
		lo := *o
		lo.Lets, line, o = overLets(s.Lets, o.Lets), s.Launch, &lo
	}
	lines := append([]string{line}, b.Compare...)
	var results []BenchResult
	w := o.stdout()
	fmt.Fprintf(w, "%-40s %10s %10s %10s %10s %10s\n", "launch", sweepName, "median ms", "p20 ms", "p80 ms", rateHeader(b))
	for _, pt := range points {
		for _, l := range lines {
			lo := *o
			if sweepName != "" {
				lo.Lets = rebind(o.Lets, sweepName, strings.TrimSpace(pt))
			}
			r, err := benchOne(path, l, &lo, b, dev, flush)
			if err != nil {
				return nil, err
			}
			r.Point = strings.TrimSpace(pt)
			results = append(results, r)
			fmt.Fprintf(w, "%-40s %10s %10.4g %10.4g %10.4g %10s\n", shorten(r.Launch, 40), r.Point, r.Median, r.P20, r.P80, rate(r))
		}
	}
	if b.CSV != "" {
		if err := writeBenchCSV(b.CSV, sweepName, results); err != nil {
			return nil, err
		}
	}
	if b.Plot != "" {
		if err := b.DrawPlot(b.Plot, "tri bench: "+path, sweepName, b, results); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// overLets is a header's bindings with each of over rebound in place (or
// appended), so the header's later bindings see the new values.
func overLets(header, over []string) []string {
	lets := header
	for _, l := range over {
		name, value, _ := strings.Cut(l, "=")
		lets = rebind(lets, strings.TrimSpace(name), value)
	}
	return lets
}

// rebind replaces the binding of name in lets in place (or appends it), so
// the bindings after it are evaluated again with the new value.
func rebind(lets []string, name, value string) []string {
	out := append([]string(nil), lets...)
	for i, l := range out {
		if n, _, _ := strings.Cut(l, "="); strings.TrimSpace(n) == name {
			out[i] = name + "=" + value
			return out
		}
	}
	return append(out, name+"="+value)
}

func benchOne(path, line string, o *Options, b *BenchOptions, dev *nvrtc.Device, flush nvrtc.DevicePtr) (BenchResult, error) {
	p, err := Prepare(path, line, o)
	if err != nil {
		return BenchResult{}, err
	}
	if o.Config < 0 {
		if p, err = p.Autotune(o); err != nil {
			return BenchResult{}, err
		}
	}
	r := BenchResult{Launch: p.Launch.Src}
	c, err := p.compile(o.LineInfo)
	if err != nil {
		return r, err
	}
	defer c.Close()
	dt := gpu.NewTensors(dev)
	defer dt.Free()
	args, err := p.deviceArgs(dt)
	if err != nil {
		return r, err
	}
	launch := func() error { return c.LaunchEx(nil, p.Grid, p.Bound.PDL, args...) }
	times, err := timeLaunches(dev, launch, flush, b.Warmup, b.Rep)
	if err != nil {
		return r, err
	}
	slices.Sort(times)
	r.Reps = len(times)
	r.Median, r.P20, r.P80 = autotune.Quantile(times, 0.5), autotune.Quantile(times, 0.2), autotune.Quantile(times, 0.8)
	if b.Bytes != "" {
		v, err := p.evalNumber("--bytes", b.Bytes)
		if err != nil {
			return r, err
		}
		r.GBps = v / (r.Median * 1e6)
	}
	if b.Flops != "" {
		v, err := p.evalNumber("--flops", b.Flops)
		if err != nil {
			return r, err
		}
		r.TFlops = v / (r.Median * 1e9)
	}
	return r, nil
}

// timeLaunches follows triton.testing.do_bench: estimate one launch's time,
// warm up for the warm-up time, then time each repetition with events,
// clearing the L2-sized buffer before each.
func timeLaunches(dev *nvrtc.Device, launch func() error, flush nvrtc.DevicePtr, warmup, rep time.Duration) ([]float64, error) {
	start, err := dev.NewEvent()
	if err != nil {
		return nil, err
	}
	defer start.Destroy()
	end, err := dev.NewEvent()
	if err != nil {
		return nil, err
	}
	defer end.Destroy()
	if err := launch(); err != nil {
		return nil, err
	}
	if err := dev.Synchronize(); err != nil {
		return nil, err
	}
	if err := start.Record(); err != nil {
		return nil, err
	}
	for range 5 {
		if err := dev.Memset(flush, 0, l2FlushBytes); err != nil {
			return nil, err
		}
		if err := launch(); err != nil {
			return nil, err
		}
	}
	if err := end.Record(); err != nil {
		return nil, err
	}
	if err := end.Synchronize(); err != nil {
		return nil, err
	}
	est, err := end.ElapsedMs(start)
	if err != nil {
		return nil, err
	}
	est /= 5
	msOf := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	nWarm := max(1, int(msOf(warmup)/est))
	nRep := min(max(1, int(msOf(rep)/est)), 5000) // bounds the events held
	for range nWarm {
		if err := launch(); err != nil {
			return nil, err
		}
	}
	starts, ends := make([]*nvrtc.Event, nRep), make([]*nvrtc.Event, nRep)
	for i := range nRep {
		if starts[i], err = dev.NewEvent(); err != nil {
			return nil, err
		}
		defer starts[i].Destroy()
		if ends[i], err = dev.NewEvent(); err != nil {
			return nil, err
		}
		defer ends[i].Destroy()
	}
	for i := range nRep {
		if err := dev.Memset(flush, 0, l2FlushBytes); err != nil {
			return nil, err
		}
		if err := starts[i].Record(); err != nil {
			return nil, err
		}
		if err := launch(); err != nil {
			return nil, err
		}
		if err := ends[i].Record(); err != nil {
			return nil, err
		}
	}
	if err := dev.Synchronize(); err != nil {
		return nil, err
	}
	times := make([]float64, nRep)
	for i := range nRep {
		if times[i], err = ends[i].ElapsedMs(starts[i]); err != nil {
			return nil, err
		}
	}
	return times, nil
}

// evalNumber evaluates a --bytes or --flops expression over the bindings.
func (p *Prepared) evalNumber(src, text string) (float64, error) {
	x, err := hosteval.ParseExpr(src, text)
	if err != nil {
		return 0, err
	}
	v, err := p.Env.Eval(x, &hosteval.Source{Name: src, Text: text})
	if err != nil {
		return 0, err
	}
	switch v.Kind {
	case hosteval.VInt:
		return float64(v.Int), nil
	case hosteval.VFloat:
		return v.Float, nil
	}
	return 0, hosteval.Usage(hosteval.ErrAt(src, 1, fmt.Sprintf("%s must be a number, got a %s", src, v.Kind)))
}

func rateHeader(b *BenchOptions) string {
	switch {
	case b.Flops != "":
		return "TFLOP/s"
	case b.Bytes != "":
		return "GB/s"
	}
	return ""
}

func rate(r BenchResult) string {
	switch {
	case r.TFlops > 0:
		return fmt.Sprintf("%.1f", r.TFlops)
	case r.GBps > 0:
		return fmt.Sprintf("%.1f", r.GBps)
	}
	return ""
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func writeBenchCSV(path, sweepName string, rs []BenchResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	col := sweepName
	if col == "" {
		col = "point"
	}
	_ = w.Write([]string{"launch", col, "median_ms", "p20_ms", "p80_ms", "reps", "gbps", "tflops"})
	for _, r := range rs {
		_ = w.Write([]string{r.Launch, r.Point, fmtF(r.Median), fmtF(r.P20), fmtF(r.P80), strconv.Itoa(r.Reps), fmtF(r.GBps), fmtF(r.TFlops)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
