package survey

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/launch"

	_ "github.com/tri-lang/tri/hostpy" // the autotune and heuristics decorators
)

const proj = "testdata/proj"

// byName indexes a survey's results by function name.
func byName(t *testing.T, rep *Report) map[string]*Result {
	t.Helper()
	out := map[string]*Result{}
	for _, r := range rep.Results {
		out[r.Name] = r
	}
	return out
}

func TestRun(t *testing.T) {
	rep, err := Run(proj, Options{Jobs: 2, Timeout: time.Minute, Arch: "sm_80"})
	require.NoError(t, err)
	rs := byName(t, rep)
	for _, c := range []struct {
		name   string
		status Status
		kind   string
		elem   string
	}{
		{"_combine", Helper, "", ""},
		{"add_kernel", Built, "", "float32"},
		{"add_tuned", Built, "", "float32"},
		{"row_sum", Built, "", "float32"},
		{"hosted_kernel", Built, "", "float32"},
		// Bits is int32 by its use (its loads are shifted), in the first
		// attempt, whose type the other pointers keep.
		{"popcount_kernel", Built, "", "float32"},
		{"words_kernel", Built, "", "uint32"},
		{"shifted_kernel", Built, "", "float32"},
		{"bf16_dot_kernel", Built, "", "bfloat16"},
		{"broken_kernel", Failed, "parse", ""},
		{"scaled_kernel", Failed, "tl.dot_scaled unsupported", ""},
		{"closure_kernel", Failed, "@jit not at top level", ""},
		{"two_errors_kernel", Failed, "undefined", ""},
	} {
		r := rs[c.name]
		require.NotNil(t, r, c.name)
		assert.Equal(t, c.status, r.Status, "%s: %s", c.name, r.Message)
		assert.Equal(t, c.kind, r.Kind, c.name)
		assert.Equal(t, c.elem, r.Elem, c.name)
	}
	// A @jit function inside a host function builds when it reads no local
	// of it; a second one of the same name builds as itself (it takes
	// another pointer), not as the first.
	var inner []string
	for _, r := range rep.Results {
		if r.Name == "inner_kernel" {
			inner = append(inner, fmt.Sprintf("%d %s %s %s", r.Line, r.Status, r.Kind, r.Launch))
		}
	}
	assert.Equal(t, []string{"7 built  inner_kernel[(1,)](x_ptr=x_ptr)", "25 built  inner_kernel[(1,)](x_ptr=x_ptr, y_ptr=y_ptr)"}, inner)
	// two_errors_kernel names undefined_one, which its file binds nowhere:
	// Triton rejects it too.
	assert.Equal(t, Counts{Kernels: 14, Built: 10, Helpers: 2, Rejected: 1, Gap: 3}, rep.Total())
	assert.Equal(t, map[string]Counts{"broken": {Kernels: 5, Built: 2, Gap: 3}, "elementwise": {Kernels: 8, Built: 8, Helpers: 2}, "tri": {Kernels: 1, Rejected: 1}}, rep.Folders())
	// A .tri file is surveyed, and every error of a kernel is recorded.
	errs := rs["two_errors_kernel"].Errors
	require.Len(t, errs, 2)
	assert.Contains(t, errs[0], "tri/two_errors.tri:10:28: undefined name undefined_one")
	assert.Contains(t, errs[1], "tri/two_errors.tri:11:36: undefined name undefined_two")
	// The cu_seqlens values are offsets: a pointer to integers.
	assert.Contains(t, rs["row_sum"].Lets, "cu_seqlens=empty(16, dtype='int32')")
	assert.Equal(t, []string{"Bits=empty(16, dtype='int32')", "Out=empty(16, dtype='float32')"}, rs["popcount_kernel"].Lets)
	assert.Contains(t, rs["scaled_kernel"].Message, "broken/scaled.py:10:")
	assert.Contains(t, rs["shifted_kernel"].Launch, "IS_OFFSETS_TENSOR=True")
}

// TestRepeatable: the launch a kernel was built for builds again through
// tri build's own path from its text, for kernels whose name no other
// @jit function of their file has (tri build picks a kernel by its name).
func TestRepeatable(t *testing.T) {
	rep, err := Run(proj, Options{Jobs: 1, Timeout: time.Minute, Arch: "sm_80"})
	require.NoError(t, err)
	defs := map[string]int{}
	for _, r := range rep.Results {
		defs[r.File+" "+r.Name]++
	}
	for _, r := range rep.Results {
		if r.Status != Built || defs[r.File+" "+r.Name] > 1 {
			continue
		}
		o := &launch.Options{Lets: r.Lets, Arch: "sm_80", Output: t.TempDir() + "/k.cu"}
		assert.NoError(t, launch.BuildFile(proj+"/"+r.File, r.Launch, o), r.Name)
	}
}

// TestPanicIsCounted: a panic in a build is caught, counted as an internal
// error naming where it happened, and listed first.
func TestPanicIsCounted(t *testing.T) {
	build := func(j *job) (string, derived, error) {
		if j.fn.Name == "add_kernel" {
			var m map[string]int
			m["boom"]++ // a nil map: the kind of bug tri might have
		}
		return buildKernel(j)
	}
	rep, err := run(proj, Options{Jobs: 2, Timeout: time.Minute, Arch: "sm_80"}, build)
	require.NoError(t, err)
	r := byName(t, rep)["add_kernel"]
	assert.Equal(t, Failed, r.Status)
	assert.Equal(t, KindInternal, r.Kind)
	assert.Contains(t, r.Message, "assignment to entry in nil map")
	kinds := rep.Kinds()
	require.NotEmpty(t, kinds)
	assert.Equal(t, KindInternal, kinds[0].Kind)
	assert.Equal(t, 1, kinds[0].Count)
	// The others still build.
	assert.Equal(t, Built, byName(t, rep)["add_tuned"].Status)
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	build := func(j *job) (string, derived, error) {
		if j.fn.Name == "row_sum" {
			<-release
		}
		return buildKernel(j)
	}
	rep, err := run(proj, Options{Jobs: 2, Timeout: 2 * time.Second, Arch: "sm_80"}, build)
	require.NoError(t, err)
	r := byName(t, rep)["row_sum"]
	assert.Equal(t, "timeout", r.Kind)
	assert.Equal(t, Built, byName(t, rep)["add_kernel"].Status)
}

func TestPrintAndCSV(t *testing.T) {
	rep, err := Run(proj, Options{Jobs: 2, Timeout: time.Minute, Arch: "sm_80"})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, rep.Print(&out, 2))
	text := out.String()
	assert.Contains(t, text, "10 of 14 kernels build (71.4%)")
	assert.Regexp(t, `(?m)^elementwise\s+8\s+8\s+100\.0\s+2$`, text)
	assert.Regexp(t, `(?m)^broken\s+2\s+5\s+40\.0\s+0$`, text)
	// --top 2 keeps two of the three kinds.
	assert.Equal(t, 2, strings.Count(text, "broken/"), text)

	var b bytes.Buffer
	require.NoError(t, rep.WriteCSV(&b))
	rows, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 1+len(rep.Results))
	assert.Equal(t, []string{"file", "line", "kernel", "status", "kind", "message", "pointers", "launch", "lets", "errors", "verdict", "why"}, rows[0])
	found := false
	for _, row := range rows[1:] {
		if row[2] == "broken_kernel" {
			found = true
			assert.Equal(t, []string{"broken/syntax.py", "6", "broken_kernel", "failed", "parse"}, row[:5])
			assert.Equal(t, row[5], row[9], "one error: the message")
			assert.Equal(t, VerdictGap, row[10])
		}
	}
	assert.True(t, found)
}

func TestKind(t *testing.T) {
	src := []byte("import triton\nfrom .utils import (\n    configs,  # the configs\n    helper as h,\n)\nimport pkg.mod\n\ndef local_configs():\n    pass\n")
	for _, c := range []struct {
		err  error
		kind string
	}{
		{errors.New("k.py:3:4: undefined name h"), "import"},
		{errors.New("k.py:3:4: undefined name nowhere"), "other"},
		{errors.New("k.py:1:1: @triton.autotune: NameError: name 'configs' is not defined"), "import"},
		{errors.New("k.py:1:1: @triton.autotune: NameError: name 'local_configs' is not defined"), "host code not read"},
		{errors.New("m.py:28:1: @triton.autotune: NameError: name 'inspect' is not defined"), "@triton.autotune: NameError"},
		{errors.New("k.py:2:1: @triton.heuristics for 'EVEN': KeyError: 'BLOCK'"), "@triton.heuristics: KeyError"},
		{errors.New("k.py:67:11: fla.ops.utils.op has no attribute log"), "import"},
		{errors.New("k.py:67:11: tl has no attribute foo"), "undefined tl name"},
		{errors.New("internal error: panic: boom"), KindInternal},
		{diag.Errorf(diag.Pos{File: "launch", Line: 1, Col: 40}, diag.CodeArgs, "k() missing argument 'n'"), "signature"},
		{diag.Errorf(diag.Pos{File: "k.py", Line: 8, Col: 40}, diag.CodeLaunch, "name 'X' is not bound"), "signature"},
		{diag.Errorf(diag.Pos{File: "k.py", Line: 8, Col: 4}, diag.CodeType, "cannot compare *i32 with i32"), "type"},
		{errTimeout, "timeout"},
		{errors.Join(errDerive, errors.New("x")), "signature"},
	} {
		assert.Equal(t, c.kind, Kind(c.err, src), c.err.Error())
	}
}

// TestHostileHostCode: a survey over files whose host code loops, recurses
// without end, allocates without bound or reads the password file
// finishes, reports each at its line, builds the rest, and leaves no
// goroutine running.
func TestHostileHostCode(t *testing.T) {
	before := runtime.NumGoroutine()
	start := time.Now()
	rep, err := Run("testdata/hostile", Options{Jobs: 2, Timeout: time.Second, Arch: "sm_80"})
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 30*time.Second)
	rs := byName(t, rep)
	for _, c := range []struct{ name, kind, msg string }{
		{"loop_kernel", "timeout", "hostile/loop.py:6:5: "},
		{"recursive_kernel", "host code past tri's limits", "hostile/recursion.py:6:5: "},
		{"bomb_kernel", "host code past tri's limits", "hostile/bomb.py:6:5: "},
		{"growth_kernel", "", "hostile/growth.py:7:5: "},
		{"passwd_kernel", "host I/O refused", "hostile/passwd.py:6:5: "},
		// a list that holds itself prints as CPython's (gpython overflowed Go's stack)
		{"cycle_kernel", "", "hostile/cycle.py:9:9: @triton.autotune: ValueError: [[...]]"},
		// sema reports a module-level value whose host code fails at the
		// value's line, with the cause at the host code's line.
		{"global_kernel", "", "got no value: testdata/hostile/global.py:7:5: the value of SCALE: host code"},
	} {
		r := rs[c.name]
		require.NotNil(t, r, c.name)
		assert.Equal(t, Failed, r.Status, c.name)
		if c.kind != "" { // growth ends at the heap limit or the timeout, whichever comes first
			assert.Equal(t, c.kind, r.Kind, "%s: %s", c.name, r.Message)
		}
		assert.Contains(t, r.Message, c.msg, c.name)
		assert.NotContains(t, r.Message, "root:", c.name)
	}
	assert.Equal(t, Built, rs["fine_kernel"].Status, rs["fine_kernel"].Message)
	settled := false
	for range 100 {
		if runtime.NumGoroutine() <= before {
			settled = true
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	assert.True(t, settled, "goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

// TestVerdicts: each failure says whose it is, and kernels for another
// backend are not counted, by the rules of verdict.go.
func TestVerdicts(t *testing.T) {
	rep, err := Run("testdata/verdicts", Options{Jobs: 2, Timeout: time.Minute, Arch: "sm_80"})
	require.NoError(t, err)
	got := map[string]string{}
	for _, r := range rep.Results {
		got[fmt.Sprintf("%s:%d %s", r.File, r.Line, r.Status)] = r.Verdict + ": " + r.Why
	}
	assert.Equal(t, map[string]string{
		"backend/_ascend/k.py:7 built": "another backend: its path names another backend (_ascend)",
		"test_errors.py:9 failed":      "Triton rejects this too: its test expects Triton to raise (pytest.raises at line 12)",
		"test_errors.py:20 failed":     "tri's gap: ",
		"test_errors.py:28 failed":     "Triton rejects this too: GENERATE_TEST_HERE is bound nowhere in the file (Triton's NameError)",
		"test_errors.py:34 failed":     "derived launch is wrong: a static assert on guessed BLOCK fails",
		"test_errors.py:45 failed":     "Triton rejects this too: LOSE_TAIL is bound nowhere in the file (Triton's NameError)",
		"test_errors.py:51 failed":     "tri's gap: ",
	}, got)
	c := rep.Total()
	assert.Equal(t, Counts{Kernels: 7, Built: 1, Backend: 1, BackendBuilt: 1, Rejected: 3, Launch: 1, Gap: 2}, c)
	assert.Equal(t, 3, c.Measured())
	assert.Equal(t, 0, c.MeasuredBuilt())
	var out bytes.Buffer
	require.NoError(t, rep.Print(&out, 0))
	assert.Contains(t, out.String(), "of the 3 kernels for NVIDIA GPUs that Triton compiles: 0 build (0.0%); 2 fail by tri's gaps, 1 by a wrong derived launch; not counted: 1 for another backend (1 build), 3 that Triton rejects too")
}

func TestBoundInText(t *testing.T) {
	text := []byte("import a.b as c\nfrom m import (x,\n  y)\nd, e = 1, 2\nf: int = 3\ndef g(h, i=1):\n    for j in k:\n        pass\nclass L:\n    pass\nuse(n)\n")
	for _, name := range []string{"c", "x", "d", "e", "f", "g", "h", "i", "j", "L"} {
		assert.True(t, boundInText(text, name), name)
	}
	// Any name of an import line counts as bound (a in import a.b as c
	// does not, in Python): the rule errs toward tri's gap.
	for _, name := range []string{"n", "use", "k"} {
		assert.False(t, boundInText(text, name), name)
	}
}

func TestTritonSays(t *testing.T) {
	assert.True(t, tritonSays.MatchString("tl.flip needs a dim: Triton 3.6 fails on its default dim=None"))
	assert.False(t, tritonSays.MatchString("recursive call to f: Triton does not support recursion"))
}
