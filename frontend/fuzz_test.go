package frontend

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics and that every diagnostic it
// reports is placed: a valid line, or at least the file's name.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/*.py", "testdata/errors/*.py"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Add([]byte(smallKernel))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, dl := Parse("fuzz.py", src)
		if file == nil || dl == nil {
			t.Fatal("Parse returned nil")
		}
		for _, d := range dl.Items {
			if !d.Pos.IsValid() && d.Pos.File == "" {
				t.Errorf("diagnostic without a place: %v", d)
			}
			if d.Pos.IsValid() && d.Pos.File != "fuzz.py" {
				t.Errorf("diagnostic in another file: %v", d)
			}
		}
		for _, b := range file.Scope {
			file.Lookup(b.Name)
		}
		for _, fn := range file.Funcs {
			file.Runs(fn)
		}
		var sink discard
		Dump(&sink, file)
	})
}

// FuzzParseExpr checks that ParseExpr never panics.
func FuzzParseExpr(f *testing.F) {
	f.Add("add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=4)")
	f.Add("lambda meta: (cdiv(n, meta['BLOCK']),)")
	f.Add("x[:, None]")
	f.Fuzz(func(t *testing.T, src string) {
		e, dl := ParseExpr("launch", src)
		if e == nil && dl.Err() == nil {
			t.Fatal("no expression and no error")
		}
		if e != nil {
			_ = FormatExpr(e)
		}
	})
}

// discard is an io.Writer that drops everything.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
