package cudagen_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
)

// stageTile is where the copies of a multi-dot pipeline put the elements
// of one operand, written out here apart from cudagen: element (r, c), r
// along M (a) or N (b) and c along K, of a K-major tile lies in rows of up
// to 128 bytes of K, in 128-byte chunks of whole tiles beyond; of an
// MN-major tile, in k rows of blocks of up to 64 columns; every row
// XOR-swizzled in 16-byte chunks by its 128-byte line.
type stageTile struct {
	off, rows, k, elem int
	kMajor             bool
}

func (t stageTile) rowBytes() int {
	if t.kMajor {
		return min(128, t.k*t.elem)
	}
	return t.elem * min(t.rows, 64)
}

// bytes is the tile's size, the next tile starting 1024 bytes aligned.
func (t stageTile) bytes() int { return (t.rows*t.k*t.elem + 1023) / 1024 * 1024 }

func (t stageTile) at(r, c int) int64 {
	rb := t.rowBytes()
	swz := func(x int) int { return x ^ (x>>7&(rb/16-1))<<4 }
	if t.kMajor {
		return int64(t.off + c*t.elem/rb*(t.rows*rb) + swz(r*rb+c*t.elem%rb))
	}
	cols := rb / t.elem
	return int64(t.off + r/cols*(t.k*rb) + swz(c*rb+r%cols*t.elem))
}

// holderMap maps a thread's register of a tile to the element it holds.
type holderMap map[[2]int][2]int

// holdersOf is the (thread, register) -> (row, column) map of the layout
// of d that has the accumulators' Blocked layout for shape [m, n].
func holdersOf(t *testing.T, d *cudagen.Description, m, n int) holderMap {
	want := fmt.Sprintf("Blocked(sizePerThread=[1, 2], threadsPerWarp=[8, 4], warpsPerCTA=[%d, 1], order=[1, 0])", d.NumWarps)
	for _, l := range d.Layouts {
		if l.Layout.String() != want || len(l.Shape) != 2 || l.Shape[0] != m || l.Shape[1] != n {
			continue
		}
		out := holderMap{}
		for idx, hs := range l.Holders() {
			for _, h := range hs {
				out[[2]int{h.Thread, h.Reg}] = [2]int{idx / n, idx % n}
			}
		}
		return out
	}
	t.Fatalf("no layout %s for [%d, %d]", want, m, n)
	return nil
}

// mmaDot is one dot of a pipelined loop, as its comment and code say.
type mmaDot struct {
	m, k, n   int
	aForm     string // "stage", "invariant", "registers"
	bKMajor   bool
	text      string
	bTile     stageTile
	aTile     stageTile
	aFragment int // the invariant's tri_a<N>
}

// TestMmaMultiPipeFragments checks, lane by lane, every fragment the dots
// of the sm_80 multi-dot pipelines read: that each ldmatrix row address
// (of a b, MN- or K-major, of an a streamed, and of an invariant a read
// into registers before the loop) is where the copies put the row of the
// element mma.sync's fragment needs, with no bank conflict among the eight
// rows of a matrix; that each register of an A fragment taken from the
// registers of the first dot's result (p) holds that element; and that
// each accumulator register is the element of the result mma.sync's C
// fragment gives it. The C expressions are evaluated for every warp, lane,
// k step and tile; the elements registers hold come from the layouts'
// Holders.
func TestMmaMultiPipeFragments(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range []struct{ file, line string }{
		{"../samples/attention_fwd.tri", ""},
		{"../conformance/constructs/attention_fwd.tri", ""},
		{"../conformance/constructs/attention_fwd_causal.tri", ""},
		{"../conformance/constructs/attn_sm80.tri", ""},
		{"../conformance/constructs/attn_sm80_bf16.tri", ""},
	} {
		src := buildLaunch(t, c.file, c.line, nil, "sm_80")
		d := describe(t, c.file, c.line, nil, "sm_80")
		loops := strings.Split(src, "// Software-pipelined, ")[1:]
		require.NotEmpty(t, loops, c.file)
		for i, loop := range loops {
			t.Run(fmt.Sprintf("%s/%d", c.file, i), func(t *testing.T) {
				for _, f := range checkMultiLoop(t, d, loop) {
					seen[f] = true
				}
			})
		}
	}
	for _, form := range []string{"a invariant", "a registers", "a stage", "b K-major", "b MN-major"} {
		assert.True(t, seen[form], "no loop checked %s", form)
	}
}

var dotHead = regexp.MustCompile(`// tl\.dot \w+\[(\d+),(\d+)\] x \w+\[(\d+),(\d+)\] on mma\.sync m16n8k16: a from (the stage|registers, read once before the loop|registers), b from the stage \((K-major|MN-major), `)

// checkMultiLoop checks the fragments of one pipelined loop (its text from
// its opening comment on) and returns the operand forms it saw.
func checkMultiLoop(t *testing.T, d *cudagen.Description, loop string) []string {
	pre, body, ok := strings.Cut(loop, "int tri_read = 0")
	require.True(t, ok)
	body, _, _ = strings.Cut(body, "tri_cp_async_wait<0>();\n") // the wait after the loop
	heads := dotHead.FindAllStringSubmatchIndex(body, -1)
	require.NotEmpty(t, heads)
	var dots []*mmaDot
	stage, inv := 0, 0
	for i, h := range heads {
		end := len(body)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		x := &mmaDot{text: body[h[0]:end]}
		num := func(j int) int { n, err := strconv.Atoi(body[h[2*j]:h[2*j+1]]); require.NoError(t, err); return n }
		x.m, x.k, x.n = num(1), num(2), num(4)
		x.aForm = map[string]string{"the stage": "stage", "registers, read once before the loop": "invariant", "registers": "registers"}[body[h[10]:h[11]]]
		x.bKMajor = body[h[12]:h[13]] == "K-major"
		// The stages hold the streamed operands in body order: here, each
		// dot's a before its b, 1024-byte aligned; the invariant operands
		// lie likewise before them.
		switch x.aForm {
		case "stage":
			x.aTile = stageTile{off: stage, rows: x.m, k: x.k, elem: 2, kMajor: true}
			stage += x.aTile.bytes()
		case "invariant":
			x.aTile = stageTile{off: inv, rows: x.m, k: x.k, elem: 2, kMajor: true}
			inv += x.aTile.bytes()
		}
		x.bTile = stageTile{off: stage, rows: x.n, k: x.k, elem: 2, kMajor: x.bKMajor}
		stage += x.bTile.bytes()
		dots = append(dots, x)
	}
	atoi := func(s string) int { n, err := strconv.Atoi(s); require.NoError(t, err); return n }
	find := func(text, re string) []string {
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		require.NotNil(t, m, re)
		return m
	}
	decls := regexp.MustCompile(`(?m)^\s*const unsigned int (tri_[lx][ab]\d*) = (.+?);$`).FindAllStringSubmatch(pre, -1)
	w := d.NumWarps
	var forms []string
	for di, x := range dots {
		mi, nj := x.m/(16*w), x.n/8
		res := holdersOf(t, d, x.m, x.n)
		// The accumulator registers of m16n8 tile (i, j).
		cRegs := regexp.MustCompile(`float& tri_c(\d) = \w+\[(.+?)\];`).FindAllStringSubmatch(x.text, -1)
		require.Len(t, cRegs, 4)
		bAddr := find(x.text, fmt.Sprintf(`for \(int tri_j = 0; tri_j < %d; \+\+tri_j\) \{\n\s*const unsigned int tri_src = (.+);\n\s*tri_ldsm_x4(?:_trans)?\(tri_bf \+ 4 \* tri_j, tri_src\);`, nj/2))[1]
		var aAddr, aInvAddr, aInvRead, rExpr string
		var aPacks [][]string
		var inAt string
		switch x.aForm {
		case "stage":
			aAddr = find(x.text, fmt.Sprintf(`for \(int tri_i = 0; tri_i < %d; \+\+tri_i\) \{\n\s*const unsigned int tri_src = (.+);\n\s*tri_ldsm_x4\(tri_af \+ 4 \* tri_i, tri_src\);`, mi))[1]
		case "invariant":
			m := find(pre, `unsigned int tri_a(\d+)\[(\d+)\];\n\s*\{\n((?:\s*const unsigned int tri_[lx]a = .+;\n)+)(?s:.*?)const unsigned int tri_src = (.+);\n\s*tri_ldsm_x4\(tri_a\d+ \+ (.+?), tri_src\);`)
			require.Equal(t, fmt.Sprint(di), m[1])
			require.Equal(t, 4*mi*x.k/16, atoi(m[2]))
			inAt, aInvAddr = m[5], m[4]
			aInvRead = find(x.text, fmt.Sprintf(`const unsigned int\* tri_af = tri_a%d \+ (.+);`, di))[1]
			decls = append(decls, regexp.MustCompile(`const unsigned int (tri_[lx]a) = (.+?);`).FindAllStringSubmatch(m[3], -1)...)
		default:
			rExpr = find(x.text, `const int tri_r = (.+?);`)[1]
			aPacks = regexp.MustCompile(`tri_af\[4 \* tri_i \+ (\d)\] = tri_pack2_b?f16\(\w+\[(.+?)\], \w+\[(.+?)\]\);`).FindAllStringSubmatch(x.text, -1)
			require.Len(t, aPacks, 4)
		}
		forms = append(forms, "a "+x.aForm, map[bool]string{true: "b K-major", false: "b MN-major"}[x.bKMajor])
		var pHold holderMap
		if x.aForm == "registers" {
			pHold = holdersOf(t, d, x.m, x.k)
		}
		banks := func(what string, addrs []int64) {
			for q := 0; q < len(addrs)/8; q++ {
				groups := map[int64]bool{}
				for _, a := range addrs[8*q : 8*q+8] {
					require.Zero(t, a%16, "%s: ldmatrix rows are 16-byte aligned", what)
					groups[a/16%8] = true
				}
				assert.Len(t, groups, 8, "%s, matrix %d: bank conflict", what, q)
			}
		}
		for warp := 0; warp < w; warp++ {
			for kk := 0; kk < x.k; kk += 16 {
				for i := 0; i < mi; i++ {
					// a's rows: matrix q of an ldmatrix.x4 is rows 0-7 (q even)
					// or 8-15 of m16 tile i, k 0-7 (q < 2) or 8-15.
					aRows := make([]int64, 32)
					for lane := 0; lane < 32; lane++ {
						e := laneEnv(t, decls, warp, lane)
						e["tri_kk"], e["tri_i"], e["tri_stage"], e["tri_inv"] = int64(kk), int64(i), 0, 0
						q, r := lane/8, lane%8
						row, col := (2*i+q%2)*8*w+warp*8+r, kk+8*(q/2)
						switch x.aForm {
						case "stage":
							aRows[lane] = evalC(t, aAddr, e)
						case "invariant":
							aRows[lane] = evalC(t, aInvAddr, e)
							// The dot reads tile i of step kk where the loads put it.
							require.Equal(t, evalC(t, inAt, e), evalC(t, aInvRead, e)+4*int64(i))
						default:
							continue
						}
						require.Equal(t, x.aTile.at(row, col), aRows[lane], "a: warp %d lane %d kk %d tile %d", warp, lane, kk, i)
					}
					if x.aForm != "registers" {
						banks("a", aRows)
						continue
					}
					// a from registers: register q of the A fragment holds
					// rows g (q even) or g+8, columns 2t, 2t+1 (q < 2) or
					// 8 further, of tile i at k step kk.
					for lane := 0; lane < 32; lane++ {
						e := map[string]int64{"tri_kk": int64(kk), "tri_i": int64(i)}
						e["tri_r"] = evalC(t, rExpr, e)
						g, tq := lane/4, lane%4
						for _, pk := range aPacks {
							q := atoi(pk[1])
							for h, ix := range pk[2:] {
								at := pHold[[2]int{warp*32 + lane, int(evalC(t, ix, e))}]
								want := [2]int{(2*i+q%2)*8*w + warp*8 + g, kk + 8*(q/2) + 2*tq + h}
								require.Equal(t, want, at, "p: warp %d lane %d kk %d tile %d reg %d half %d", warp, lane, kk, i, q, h)
							}
						}
					}
				}
				// b: matrix q of pair j is the n8 tile 2j + q/2 at k 0-7 or
				// 8-15 (q % 2).
				for j := 0; j < nj/2; j++ {
					addrs := make([]int64, 32)
					for lane := 0; lane < 32; lane++ {
						e := laneEnv(t, decls, warp, lane)
						e["tri_kk"], e["tri_j"], e["tri_stage"] = int64(kk), int64(j), 0
						addrs[lane] = evalC(t, bAddr, e)
						q, r := lane/8, lane%8
						var want int64
						if x.bKMajor {
							want = x.bTile.at(16*j+8*(q/2)+r, kk+8*(q%2))
						} else {
							want = x.bTile.at(16*j+8*(q/2), kk+8*(q%2)+r)
						}
						require.Equal(t, want, addrs[lane], "b: warp %d lane %d kk %d pair %d", warp, lane, kk, j)
					}
					banks("b", addrs)
				}
			}
			// The accumulators: c0, c1 at row g of tile i, columns 2t and
			// 2t+1 of tile j; c2, c3 at row g+8.
			for lane := 0; lane < 32; lane++ {
				g, tq := lane/4, lane%4
				for i := 0; i < mi; i++ {
					for j := 0; j < nj; j++ {
						e := map[string]int64{"tri_i": int64(i), "tri_j": int64(j)}
						for _, cr := range cRegs {
							c := atoi(cr[1])
							at := res[[2]int{warp*32 + lane, int(evalC(t, cr[2], e))}]
							want := [2]int{(2*i+c/2)*8*w + warp*8 + g, 8*j + 2*tq + c%2}
							require.Equal(t, want, at, "c%d: warp %d lane %d tile %d, %d", c, warp, lane, i, j)
						}
					}
				}
			}
		}
	}
	return forms
}

// TestSplitWarps: the 32 query rows of attn_split_warps over 4 warps are
// two m16 tiles, so the warps split 2 along the rows and 2 along N
// (mmaPipeBlocked) on sm_80 and on sm_90a, where no dot has a wgmma shape.
// Each warp reads the one n8 tile of the 16 scores it owns with
// ldmatrix.x2 from row (its column) 8 of k's stage, and the n8 tiles of v
// from its own column on, every 16 columns; p is stored where its dot
// stands, and its A fragments read back by ldmatrix.x4.
func TestSplitWarps(t *testing.T) {
	const file = "../conformance/constructs/attn_split_warps.tri"
	for _, arch := range []string{"sm_80", "sm_90a"} {
		src, err := build(t, file, arch)
		require.NoError(t, err)
		assert.Contains(t, src, "// Software-pipelined, 2 dot(s) on mma.sync m16n8k16", arch)
		assert.Contains(t, src, "Blocked(sizePerThread=[1, 2], threadsPerWarp=[8, 4], warpsPerCTA=[2, 2], order=[1, 0]) for [32, 16] tiles", arch)
		// k: the warp's n8 tile of the scores starts at row (warp_id % 2) * 8.
		assert.Contains(t, src, "const unsigned int tri_lb0 = ((warp_id % 2) * 8 + lane_id % 8 + lane_id / 16 * 16) * 128 + lane_id / 8 % 2 * 16;", arch)
		assert.Contains(t, src, "tri_ldsm_x2(tri_bf + 4 * tri_j, tri_src);", arch)
		// v: the pairs of n8 tiles 16 columns apart, in 64-column blocks.
		assert.Contains(t, src, "const unsigned int tri_cb1 = (warp_id % 2) * 8 + lane_id / 16 * 16;", arch)
		assert.Contains(t, src, "(tri_cb1 + tri_j * 32) / 64 * 2048", arch)
		// p: stored, then read back, with the scratch free after the dot.
		assert.Contains(t, src, "a from shared memory, stored here, b from the stage (MN-major", arch)
		assert.Contains(t, src, "const unsigned int tri_la1 = ((warp_id / 2 % 2) * 8 + lane_id % 8 + lane_id / 8 % 2 * 16) * 32", arch)
		assert.Contains(t, src, "__syncthreads();  // the scratch memory is free again", arch)
		d := describe(t, file, "", nil, arch)
		require.Len(t, d.Loops, 1)
		require.True(t, d.Loops[0].Pipelined, d.Loops[0].Why)
		forms := map[string]string{}
		for _, o := range d.Loops[0].Operands {
			forms[o.Name] = o.Form
		}
		assert.Equal(t, "staged", forms["p_bf16"], "%v", forms)
	}
}
