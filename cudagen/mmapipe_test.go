package cudagen_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/launch"
)

// buildLaunch runs tri build on file with launch line (or its recorded
// one, "") and lets, for arch.
func buildLaunch(t *testing.T, file, line string, lets []string, arch string) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, launch.BuildFile(file, line, &launch.Options{Arch: arch, Stdout: &out, Lets: lets}))
	return unwrap(out.String())
}

// reWrapped is the start of a comment line that continues the one above
// it: the emitter wraps a comment wider than its line width onto lines
// indented two spaces past the text's own.
var reWrapped = regexp.MustCompile(`\n[ \t]*//   +`)

// unwrap joins each wrapped comment back onto one line, so that tests can
// look for a comment's text whatever the width it was wrapped to.
func unwrap(src string) string { return reWrapped.ReplaceAllString(src, " ") }

// flat is s unwrapped with each run of white space one space: the text of
// a comment or a parameter list whatever its line breaks.
func flat(s string) string { return strings.Join(strings.Fields(unwrap(s)), " ") }

// groupedLaunch is bench/bench_matmul.py's grouped matmul at 4096^3:
// 128 x 128 x 32 blocks, 4 warps, 3 stages.
const groupedLaunch = "grouped_matmul_k[(triton.cdiv(m, 128), triton.cdiv(n, 128))](a, b, c, m, n, k, a.stride(0), a.stride(1), " +
	"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=128, bn=128, bk=32, group_sz=8, num_warps=4, num_stages=3)"

var groupedLets = []string{"m=4096", "n=4096", "k=4096", "a=randn(m, k, dtype='float16')", "b=randn(k, n, dtype='float16')", "c=empty(m, n, dtype='float16')"}

// TestMmaPipelineSamples checks the structure of the K loops of tutorial
// 03's matmul (its first config: 128 x 256 x 64, 8 warps, 3 stages) and of
// the grouped pointer matmul (128 x 128 x 32, 4 warps, 3 stages) built for
// sm_80 with 16-divisible sizes: pipelined with cp.async and no wgmma;
// each stage filled by 16-byte copies, a thread's share of a and b; one
// wait for the stage num_stages-1 groups back and one for all at the end;
// A fragments by ldmatrix.x4 and B's by ldmatrix.x4.trans from swizzled
// rows; num_stages stages of shared memory.
func TestMmaPipelineSamples(t *testing.T) {
	for _, c := range []struct {
		name, file, line string
		lets             []string
		threads, m, n, k int
		rowMask          string // the swizzle mask of a's rows (k fp16)
		smem             string
	}{
		{"tutorial03", "../samples/matmul_tutorial03.tri", "", []string{"M=512", "N=512", "K=512"}, 256, 128, 256, 64, "7",
			"// Dynamic shared memory: 147456 bytes"},
		{"grouped", "../samples/matmul_grouped.tri", groupedLaunch, groupedLets, 128, 128, 128, 32, "3",
			"__shared__ __attribute__((aligned(1024))) unsigned char tri_smem[49152];"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := buildLaunch(t, c.file, c.line, c.lets, "sm_80")
			assert.NotContains(t, src, "wgmma")
			assert.Equal(t, 1, strings.Count(src, "// Software-pipelined: the loads feeding tl.dot stream into 3 shared-memory stages with cp.async,"))
			assert.Contains(t, src, "2 iteration(s) ahead of the mma.sync m16n8k16 that reads them through ldmatrix (a: K-major, b: MN-major),")
			// Each load is copied in the prologue and in the loop: one
			// 16-byte cp.async per 8 halves of a thread's share.
			copies := regexp.MustCompile(`for \(int e = 0; e < (\d+); e \+= 8\) \{\n(?:\s*const .*\n)*\s*tri_cp_async_16\(`).FindAllStringSubmatch(src, -1)
			require.Len(t, copies, 4)
			perThread := 0
			for _, cp := range copies[:2] {
				n, _ := strconv.Atoi(cp[1])
				perThread += n / 8
			}
			assert.Equal(t, (c.m*c.k+c.k*c.n)*2, perThread*16*c.threads, "the copies of a stage fill a and b once")
			assert.Equal(t, 1, strings.Count(src, "tri_cp_async_wait<1>();  // this iteration's stage has landed"))
			assert.Equal(t, 1, strings.Count(src, "tri_cp_async_wait<0>();"))
			assert.Equal(t, 2, strings.Count(src, "tri_cp_async_commit();\n"))
			assert.Contains(t, src, "tri_ldsm_x4(tri_af + 4 * tri_i, tri_sa + ((tri_la + tri_kk * 2) ^ tri_xa)")
			assert.Contains(t, src, "tri_ldsm_x4_trans(tri_bf + 4 * tri_j, tri_b + ((tri_c % ")
			assert.Contains(t, src, "const unsigned int tri_xa = (tri_la >> 7 & "+c.rowMask+") << 4;")
			// a's copies land in its swizzled rows.
			assert.Regexp(t, `const unsigned int tri_dst = tri_stage0 \+ tri_s \* \d+ \+ tri_swizzle\([^;]+ \* 2, `+c.rowMask+`\);\n\s*tri_cp_async_16\(tri_dst, `, src)
			assert.Contains(t, src, c.smem)
			assert.NotContains(t, src, "element by element (no 4-byte run")
		})
	}
}

// TestMmaPipelineLdmatrix checks, lane by lane, that the addresses each
// ldmatrix of the sm_80 pipelines reads are those of the elements
// mma.sync's fragments need, where the copies put them (a's row r, column
// c at swizzle(r * aRow + 2c); b MN-major in blocks of 64 columns; a b.T
// K-major as a), with no bank conflict among the eight rows of a matrix.
// The C expressions of the generated loop are evaluated for every warp,
// lane, k step and fragment; the expected element comes from the
// accumulator's Blocked layout (sizePerThread [1, 2], threadsPerWarp
// [8, 4]): mma tile i of a warp covers its rows of repetitions 2i and
// 2i + 1, tile j its columns of repetition j.
func TestMmaPipelineLdmatrix(t *testing.T) {
	sources := map[string]string{
		"grouped":      buildLaunch(t, "../samples/matmul_grouped.tri", groupedLaunch, groupedLets, "sm_80"),
		"grouped_hdr":  buildLaunch(t, "../samples/matmul_grouped.tri", "", nil, "sm_80"),
		"tutorial03":   buildLaunch(t, "../samples/matmul_tutorial03.tri", "", nil, "sm_80"),
		"sm80":         buildLaunch(t, "../conformance/constructs/pipeline_sm80.tri", "", nil, "sm_80"),
		"sm80_bf16":    buildLaunch(t, "../conformance/constructs/pipeline_sm80_bf16.tri", "", nil, "sm_80"),
		"tutorial03_2": buildLaunch(t, "../samples/matmul_tutorial03.tri", "", []string{"M=512", "N=512", "K=512"}, "sm_80"),
	}
	seen := map[string]bool{}
	for name, src := range sources {
		loops := strings.Split(src, "// Software-pipelined:")[1:]
		require.NotEmpty(t, loops, name)
		for i, loop := range loops {
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				seen[checkLdmatrix(t, src, loop)] = true
			})
		}
	}
	// Every form of B's ldmatrix was checked.
	for _, form := range []string{"x4_trans", "x2_trans", "x4", "x2"} {
		assert.True(t, seen[form], form)
	}
}

// checkLdmatrix checks the ldmatrix addresses of one pipelined loop of
// src (its text from the loop's comment on) and returns the form of its
// B loads.
func checkLdmatrix(t *testing.T, src, loop string) string {
	t.Helper()
	find := func(re string) []string {
		m := regexp.MustCompile(re).FindStringSubmatch(loop)
		require.NotNil(t, m, re)
		return m
	}
	atoi := func(s string) int { n, err := strconv.Atoi(s); require.NoError(t, err); return n }
	dot := find(`// tl\.dot \w+\[(\d+),(\d+)\] x \w+\[(\d+),(\d+)\] on mma\.sync`)
	m, k, n := atoi(dot[1]), atoi(dot[2]), atoi(dot[4])
	lay := regexp.MustCompile(fmt.Sprintf(`Blocked\(sizePerThread=\[1, 2\], threadsPerWarp=\[8, 4\], warpsPerCTA=\[(\d+), (\d+)\], order=\[1, 0\]\) for \[%d, %d\] tiles`, m, n)).FindStringSubmatch(src)
	require.NotNil(t, lay, "the accumulator layout")
	wm, wn := atoi(lay[1]), atoi(lay[2])
	aBytes := atoi(find(`const unsigned int tri_sa = [^,]+, tri_sb = tri_sa \+ (\d+);`)[1])
	aRow := 2 * k
	require.Equal(t, m*aRow, aBytes)

	decls := regexp.MustCompile(`(?m)^\s*const (?:unsigned )?int (tri_(?:la|xa|lb|xb|cb)) = (.+?);`).FindAllStringSubmatch(loop, 5)
	aLoad := find(`for \(int tri_i = 0; tri_i < (\d+); \+\+tri_i\) tri_ldsm_x4\(tri_af \+ 4 \* tri_i, (.+)\);`)
	mi := atoi(aLoad[1])
	require.Equal(t, m/(16*wm), mi)
	nj := n / (8 * wn)

	var bForm, bAddr, cExpr, bExpr string
	kMajor := false
	pairs := 0
	if bk := regexp.MustCompile(`for \(int tri_j = 0; tri_j < (\d+); \+\+tri_j\) tri_ldsm_(x4|x2)\(tri_bf \+ 4 \* tri_j, (.+)\);`).FindStringSubmatch(loop); bk != nil {
		kMajor, pairs, bForm, bAddr = true, atoi(bk[1]), bk[2], bk[3]
	} else {
		pairs = atoi(find(`for \(int tri_j = 0; tri_j < (\d+); \+\+tri_j\) \{\n\s*const int tri_c`)[1])
		cExpr = find(`const int tri_c = (.+?);`)[1]
		bExpr = find(`const unsigned int tri_b = (.+?);`)[1]
		tr := find(`tri_ldsm_(x4|x2)_trans\(tri_bf \+ 4 \* tri_j, (.+)\);`)
		bForm, bAddr = tr[1]+"_trans", tr[2]
	}
	lanes := 32
	if strings.HasPrefix(bForm, "x2") {
		lanes = 16
		require.Equal(t, 1, nj)
		require.Equal(t, 1, pairs)
	} else {
		require.Equal(t, nj/2, pairs)
	}
	bRow, bCols := aRow, 0
	if !kMajor {
		bCols = min(n, 64)
		bRow = 2 * bCols
	}
	swz := func(off, row int) int64 { return int64(off ^ ((off >> 7) & (row/16 - 1) << 4)) }

	// banks checks that the eight rows of each matrix one ldmatrix reads
	// (from lanes 8q .. 8q+7) lie in distinct 16-byte bank groups.
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
	for warp := 0; warp < wm*wn; warp++ {
		wRow, wCol := warp/wn, warp%wn
		for kk := 0; kk < k; kk += 16 {
			for i := 0; i < mi; i++ {
				addrs := make([]int64, 32)
				for lane := 0; lane < 32; lane++ {
					e := laneEnv(t, decls, warp, lane)
					e["tri_kk"], e["tri_i"], e["tri_sa"] = int64(kk), int64(i), 0
					addrs[lane] = evalC(t, aLoad[2], e)
					q, r := lane/8, lane%8
					row := (2*i+q%2)*8*wm + wRow*8 + r
					col := kk + 8*(q/2)
					require.Equal(t, swz(row*aRow+2*col, aRow), addrs[lane], "a: warp %d lane %d kk %d tile %d", warp, lane, kk, i)
				}
				banks("a", addrs)
			}
			for p := 0; p < pairs; p++ {
				addrs := make([]int64, lanes)
				for lane := 0; lane < lanes; lane++ {
					e := laneEnv(t, decls, warp, lane)
					e["tri_kk"], e["tri_j"], e["tri_sa"], e["tri_sb"] = int64(kk), int64(p), 0, int64(aBytes)
					if !kMajor {
						e["tri_c"] = evalC(t, cExpr, e)
						e["tri_b"] = evalC(t, bExpr, e)
					}
					addrs[lane] = evalC(t, bAddr, e)
					q, r := lane/8, lane%8
					j := 2*p + q/2
					var want int64
					if kMajor {
						nrow, kc := j*8*wn+wCol*8+r, kk+8*(q%2)
						want = int64(aBytes) + swz(nrow*bRow+2*kc, bRow)
					} else {
						krow, col := kk+8*(q%2)+r, j*8*wn+wCol*8
						want = int64(aBytes) + swz(col/bCols*k*bRow+krow*bRow+col%bCols*2, bRow)
					}
					require.Equal(t, want, addrs[lane], "b: warp %d lane %d kk %d pair %d", warp, lane, kk, p)
				}
				banks("b", addrs)
			}
		}
	}
	return bForm
}

// laneEnv evaluates the lane's declarations of a pipelined loop for a
// warp and lane.
func laneEnv(t *testing.T, decls [][]string, warp, lane int) map[string]int64 {
	e := map[string]int64{"warp_id": int64(warp), "lane_id": int64(lane)}
	for _, d := range decls {
		e[d[1]] = evalC(t, d[2], e)
	}
	return e
}

// evalC evaluates a C integer expression of the generated code: names,
// integer literals and + - * / % ^ & | << >> with parentheses. Go parses
// these as C does where the code leaves precedence to them (* / % before
// + -, shifts before &; ^ only in parentheses).
func evalC(t *testing.T, expr string, env map[string]int64) int64 {
	t.Helper()
	x, err := parser.ParseExpr(expr)
	require.NoError(t, err, expr)
	var eval func(ast.Expr) int64
	eval = func(x ast.Expr) int64 {
		switch x := x.(type) {
		case *ast.ParenExpr:
			return eval(x.X)
		case *ast.Ident:
			v, ok := env[x.Name]
			require.True(t, ok, "%s in %s", x.Name, expr)
			return v
		case *ast.BasicLit:
			v, err := strconv.ParseInt(x.Value, 0, 64)
			require.NoError(t, err)
			return v
		case *ast.BinaryExpr:
			a, b := eval(x.X), eval(x.Y)
			switch x.Op {
			case token.ADD:
				return a + b
			case token.SUB:
				return a - b
			case token.MUL:
				return a * b
			case token.QUO:
				return a / b
			case token.REM:
				return a % b
			case token.XOR:
				return a ^ b
			case token.AND:
				return a & b
			case token.OR:
				return a | b
			case token.SHL:
				return a << b
			case token.SHR:
				return a >> b
			}
		}
		t.Fatalf("cannot evaluate %T in %s", x, expr)
		return 0
	}
	return eval(x)
}

// TestMmaPipelineRefused checks that a K loop of the pipeline's form whose
// dot takes fp32 operands (tf32 or ieee) keeps its operands staged each
// iteration on sm_80, and says why in the CUDA and in --dump=layout.
func TestMmaPipelineRefused(t *testing.T) {
	src, err := build(t, "../samples/matmul_ieee.tri", "sm_80")
	require.NoError(t, err)
	assert.NotContains(t, src, "Software-pipelined")
	assert.Contains(t, src, "// Its loop is not software-pipelined: the pipelines on mma.sync (sm_80) take fp16 or bf16 operands into fp32, not fp32 x fp32 into fp32.")
	var out, dump bytes.Buffer
	require.NoError(t, launch.BuildFile("../samples/matmul_ieee.tri", "", &launch.Options{Arch: "sm_80", Stdout: &out, Stderr: &dump, Dump: []string{"layout"}}))
	assert.Contains(t, out.String()+dump.String(), "operands staged in shared memory; its loop is not software-pipelined: the pipelines on mma.sync (sm_80) take fp16 or bf16 operands into fp32, not fp32 x fp32 into fp32")
}

// TestMmaPipelineElements checks that a load no copy of 4 bytes can move
// (pipeline_sm80_bf16's b: N = 40 leaves its rows unaligned) reaches an
// sm_80 stage through registers with every load issued before the first
// shared-memory store, whose inline PTX would otherwise hold each next
// load behind it.
func TestMmaPipelineElements(t *testing.T) {
	src, err := build(t, "../conformance/constructs/pipeline_sm80_bf16.tri", "sm_80")
	require.NoError(t, err)
	loads := "for (int e = 0; e < 16; ++e) tri_b_elems[e] = "
	stores := "const unsigned int tri_dst = tri_stage0 + tri_write * 6144 + 2048 + tri_swizzle("
	require.Contains(t, src, loads)
	require.Contains(t, src, stores)
	assert.Less(t, strings.Index(src, loads), strings.Index(src, stores))
	assert.Contains(t, src, "const int tri_col = L9_base1;\n")
	assert.Contains(t, src, "tri_col % 32 * 2, 3);\n          tri_st_shared_u16(tri_dst, tri_b_elems[e]);")
	assert.NotRegexp(t, `tri_st_shared_u16\([^;]*\? \*`, src)
}
