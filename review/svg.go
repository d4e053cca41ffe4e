package review

// This file draws the pictures of the page as SVG: a layout's threads and
// registers over the elements of a tile, and a software pipeline's buffers
// over its iterations.

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/tri-lang/tri/cudagen"
)

// The largest window of a tile a layout picture draws: more rows or
// columns repeat the pattern of the layout's tile, and would only weigh
// the page down (a 128 x 128 tile is 16,384 cells).
const (
	maxRows = 16
	maxCols = 32
	cellW   = 30
	cellH   = 22
)

// layoutPicture is a layout's SVG and the sentence saying what part of
// the tile it shows.
type layoutPicture struct {
	SVG     template.HTML
	Caption string
}

// drawLayout draws the top-left window of a tile in layout l: one cell per
// element, holding the thread (t) and register (r) that hold it, colored
// by warp (hue) and lane (lightness); a replicated element names its first
// holder and counts the others. A 1-D tile is drawn in rows of 32
// elements; a tile of rank 3 or more, its first 2-D slice.
func drawLayout(l cudagen.TileLayout) layoutPicture {
	holders := l.Holders()
	rows, cols := 1, 1
	switch r := len(l.Shape); {
	case r == 1:
		cols = min(l.Shape[0], maxCols)
		rows = (l.Shape[0] + cols - 1) / cols
	case r >= 2:
		rows, cols = l.Shape[r-2], l.Shape[r-1]
	}
	shownR, shownC := min(rows, maxRows), min(cols, maxCols)
	warps := max(1, l.Threads/32)
	const left, top = 28, 16
	w, h := left+shownC*cellW+2, top+shownR*cellH+2
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="layout" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="layout #%s">`, w, h, w, h, l.Tag)
	b.WriteString(`<g class="ax">`)
	for c := 0; c < shownC; c += 4 {
		fmt.Fprintf(&b, `<text x="%d" y="11">%d</text>`, left+c*cellW+cellW/2, c)
	}
	for r := 0; r < shownR; r++ {
		label := r
		if len(l.Shape) == 1 {
			label = r * cols
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text>`, left-3, top+r*cellH+cellH/2+3, label)
	}
	b.WriteString(`</g><g class="cells">`)
	for r := 0; r < shownR; r++ {
		for c := 0; c < shownC; c++ {
			idx := r*cols + c
			x, y := left+c*cellW, top+r*cellH
			if idx >= len(holders) || len(holders[idx]) == 0 {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#fff"/>`, x, y, cellW, cellH)
				continue
			}
			hd := holders[idx][0]
			warp, lane := hd.Thread/32, hd.Thread%32
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="hsl(%d,70%%,%d%%)"/>`, x, y, cellW, cellH, warp*360/warps, 90-lane*25/32)
			more := ""
			if n := len(holders[idx]); n > 1 {
				more = fmt.Sprintf("+%d", n-1)
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d">t%d</text><text x="%d" y="%d">r%d%s</text>`, x+cellW/2, y+9, hd.Thread, x+cellW/2, y+19, hd.Reg, more)
		}
	}
	b.WriteString(`</g></svg>`)
	var caption string
	switch {
	case len(l.Shape) == 1 && rows > shownR:
		caption = fmt.Sprintf("elements 0 to %d of %d, in rows of %d", shownR*cols-1, l.Shape[0], cols)
	case len(l.Shape) == 1:
		caption = fmt.Sprintf("all %d elements, in rows of %d", l.Shape[0], cols)
	case rows > shownR || cols > shownC:
		caption = fmt.Sprintf("rows 0 to %d of %d, columns 0 to %d of %d", shownR-1, rows, shownC-1, cols)
	default:
		caption = fmt.Sprintf("all %d x %d elements", rows, cols)
	}
	if len(l.Shape) > 2 {
		caption += " of the first " + fmt.Sprint(l.Shape[len(l.Shape)-2:]) + " slice"
	}
	return layoutPicture{template.HTML(b.String()), caption}
}

// What a buffer of a pipeline holds at an iteration, and its color.
type bufferState int

const (
	free      bufferState = iota
	copying               // its copies are in flight
	read                  // the dots of this iteration read it
	stillRead             // the previous iteration's wgmma still reads it
)

// pipelineStates is what each buffer of a pipeline of s stages and nb
// buffers holds before the loop (column 0) and at the dot of iterations
// 0 to cols-2 (the other columns): the buffer of iteration m is m % nb,
// the copies run s-1 iterations ahead, and where nb is s+1 the wgmma of
// the iteration before is still running. Each cell also holds the
// iteration whose operands the buffer holds (-1: none).
func pipelineStates(s, nb, cols int) (state [][]bufferState, iter [][]int) {
	state, iter = make([][]bufferState, nb), make([][]int, nb)
	for b := range nb {
		state[b], iter[b] = make([]bufferState, cols), make([]int, cols)
		for c := range iter[b] {
			iter[b][c] = -1
		}
	}
	// Before the loop, the copies of iterations 0 to s-2 are issued.
	for m := 0; m < s-1; m++ {
		state[m%nb][0], iter[m%nb][0] = copying, m
	}
	for c := 1; c < cols; c++ {
		i := c - 1
		for m := i; m <= i+s-1; m++ {
			st := copying
			if m == i {
				st = read
			}
			state[m%nb][c], iter[m%nb][c] = st, m
		}
		if nb > s && i > 0 {
			state[(i-1)%nb][c], iter[(i-1)%nb][c] = stillRead, i-1
		}
	}
	return state, iter
}

// drawPipeline draws a pipelined loop's buffers (rows) before the loop and
// at the dots of its first iterations (columns).
func drawPipeline(l cudagen.Loop) template.HTML {
	if !l.Pipelined || l.Stages < 1 || l.Buffers < 1 || l.Buffers > 16 {
		return ""
	}
	cols := l.Stages + 3
	state, iter := pipelineStates(l.Stages, l.Buffers, cols)
	const left, top, cw, ch = 70, 34, 78, 26
	w, h := max(left+cols*cw+2, 640), top+l.Buffers*ch+34
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="pipe" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="pipeline of the loop at line %d">`, w, h, w, h, l.Pos.Line)
	fill := map[bufferState]string{free: "#f4f4f4", copying: "#ffd27f", read: "#8fd18f", stillRead: "#9cc3f5"}
	word := map[bufferState]string{copying: "copy %d", read: "dot %d", stillRead: "wgmma %d"}
	for c := range cols {
		label := "before"
		if c > 0 {
			label = fmt.Sprintf("iteration %d", c-1)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, left+c*cw+cw/2, top-10, label)
	}
	for r := range l.Buffers {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">buffer %d</text>`, left-6, top+r*ch+ch/2+4, r)
		for c := range cols {
			st := state[r][c]
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#fff"/>`, left+c*cw, top+r*ch, cw, ch, fill[st])
			if st != free {
				fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">`+word[st]+`</text>`, left+c*cw+cw/2, top+r*ch+ch/2+4, iter[r][c])
			}
		}
	}
	y := top + l.Buffers*ch + 20
	x := left
	for _, k := range []bufferState{copying, read, stillRead} {
		if k == stillRead && l.Buffers <= l.Stages {
			continue
		}
		legend := map[bufferState]string{copying: "copies in flight", read: "read by the dots", stillRead: "read by the wgmma still running"}[k]
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>`, x, y-10, fill[k], x+16, y, legend)
		x += 16 + 7*len(legend) + 14
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
