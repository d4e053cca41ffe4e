package interp

// This file implements the memory budget of a run. Without one, a kernel
// that keeps many large tiles alive (an unrolled loop binding a new
// 2^20-element tile per iteration) grows the heap until the Go runtime
// dies of out-of-memory, which no recover catches.
//
// The budget counts the bytes of the kernel's tensors, once at the start,
// and of the tiles the programs hold in their value and variable slots:
// a tile is held from the statement that makes it until its slot is
// written again (the same statement in a later iteration or program) or,
// for a variable, until the next program starts. Views that share their
// elements (reshape, expand_dims) count once per program; tiles under
// bigTile bytes (scalars, small tiles) are not counted, as the IR's size
// bounds how many of them a program holds. After each statement the total
// over all running programs is compared with the budget; past it, the run
// stops with an error placed at that statement. Temporaries inside one op
// are not counted: they die with the op.
//
// DefaultMaxMemory is half the memory the machine has available, as the
// Go heap may grow to twice what is live before it is collected.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// bigTile is the size from which a tile's elements are counted.
const bigTile = 4096

// DefaultMaxMemory is the budget a run gets when Options.MaxMemory is 0:
// half of MemAvailable in /proc/meminfo (half of MemTotal where that is
// missing), or 4 GiB where neither can be read.
func DefaultMaxMemory() int64 {
	text, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 4 << 30
	}
	fields := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		f := strings.Fields(rest)
		if !ok || len(f) != 2 || f[1] != "kB" {
			continue
		}
		if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			fields[name] = kb << 10
		}
	}
	for _, name := range []string{"MemAvailable", "MemTotal"} {
		if b := fields[name]; b > 0 {
			return b / 2
		}
	}
	return 4 << 30
}

// units are the suffixes ParseBytes takes and FormatBytes prints.
var units = []struct {
	name  string
	bytes int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}

// ParseBytes reads a size such as 8GiB, 512MiB, 2.5GB or 1000000 (bytes);
// the size must be positive.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	scale := int64(1)
	for _, u := range units {
		if num, ok := strings.CutSuffix(t, u.name); ok {
			t, scale = strings.TrimSpace(num), u.bytes
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || !(x > 0) || x*float64(scale) >= 1<<63 {
		return 0, fmt.Errorf("want a positive size such as 8GiB, 512MiB or 2.5GB, not %q", s)
	}
	return max(int64(x*float64(scale)), 1), nil
}

// FormatBytes prints n in the largest binary unit it reaches, to one
// decimal ("8 GiB", "1.5 MiB", "512 B").
func FormatBytes(n int64) string {
	for _, u := range units[:4] {
		if n >= u.bytes {
			s := strconv.FormatFloat(float64(n)/float64(u.bytes), 'f', 1, 64)
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}

// elements returns the key of t's elements (the address of the first) and
// their size in bytes, or a nil key for a tile under bigTile.
func elements(t *tile) (any, int64) {
	switch {
	case len(t.ints)*8 >= bigTile:
		return &t.ints[0], int64(cap(t.ints)) * 8
	case len(t.flts)*8 >= bigTile:
		return &t.flts[0], int64(cap(t.flts)) * 8
	}
	return nil, 0
}

// hold counts t (and its parts) as held by one more slot of p.
func (p *program) hold(t *tile) {
	if t == nil {
		return
	}
	for _, part := range t.parts {
		p.hold(part)
	}
	key, n := elements(t)
	if key == nil {
		return
	}
	if p.held == nil {
		p.held = map[any]int{}
	}
	if p.held[key]++; p.held[key] == 1 {
		p.m.live.Add(n)
	}
}

// release counts t (and its parts) as held by one slot fewer.
func (p *program) release(t *tile) {
	if t == nil {
		return
	}
	for _, part := range t.parts {
		p.release(part)
	}
	key, n := elements(t)
	if key == nil || p.held[key] == 0 {
		return
	}
	if p.held[key]--; p.held[key] == 0 {
		delete(p.held, key)
		p.m.live.Add(-n)
	}
}

// setVal puts t in value slot id, releasing what the slot held.
func (p *program) setVal(id int, t *tile) {
	p.release(p.vals[id])
	p.vals[id] = t
	p.hold(t)
}

// setVar puts t in variable slot id, releasing what the slot held.
func (p *program) setVar(id int, t *tile) {
	p.release(p.vars[id])
	p.vars[id] = t
	p.hold(t)
}

// clearVars empties the variable slots, as a program starts.
func (p *program) clearVars() {
	if len(p.held) > 0 {
		for _, t := range p.vars {
			p.release(t)
		}
	}
	clear(p.vars)
}

// overBudget returns the error for the statement s whose result took the
// run past its budget, or nil while it is within.
func (p *program) overBudget(s *ir.Value) error {
	live := p.m.live.Load()
	if live <= p.m.budget {
		return nil
	}
	_, n := elements(p.vals[s.ID])
	d := p.errorf(s.Pos, diag.CodeRuntime, "this %s's result (%s) takes the run past its memory budget of %s: the kernel's tensors take %s and the tiles the programs hold %s",
		s.Op, FormatBytes(n), FormatBytes(p.m.budget), FormatBytes(p.m.tensorBytes), FormatBytes(live-p.m.tensorBytes))
	d.Suggestion = "raise the budget with --max-memory (Options.MaxMemory), or keep fewer large tiles alive at once"
	return d
}

// startBudget sets the run's budget (0: DefaultMaxMemory) and counts the
// kernel's tensors against it.
func (m *machine) startBudget(budget int64) error {
	if budget <= 0 {
		budget = DefaultMaxMemory()
	}
	m.budget = budget
	for _, b := range m.mem.bufs {
		m.tensorBytes += int64(len(b.t.Data))
	}
	m.live.Store(m.tensorBytes)
	if m.tensorBytes > budget {
		d := m.kernelError(diag.CodeRuntime, "the kernel's tensors take %s, more than the run's memory budget of %s", FormatBytes(m.tensorBytes), FormatBytes(budget))
		d.Suggestion = "raise the budget with --max-memory (Options.MaxMemory)"
		return d
	}
	return nil
}
