package sema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// fuzzSignature derives a signature from parameter names: pointers to fp32
// for names that look like pointers, 16 for constexprs, i32 otherwise.
func fuzzSignature(fn *frontend.Func) Signature {
	var s Signature
	for _, p := range fn.Params {
		lower := strings.ToLower(p.Name)
		switch {
		case p.Constexpr:
			s.Args = append(s.Args, cInt(16))
		case strings.Contains(lower, "ptr") || strings.HasPrefix(lower, "p") && len(lower) <= 2 || strings.HasSuffix(lower, "_p"):
			s.Args = append(s.Args, ptr(ir.Float32))
		default:
			s.Args = append(s.Args, scalar(ir.Int32))
		}
	}
	return s
}

func FuzzSpecialize(f *testing.F) {
	for _, pattern := range []string{"testdata/errors/*.tri", "testdata/samples/*.tri", "../samples/*.tri"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			if b, err := os.ReadFile(path); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := frontend.Parse("fuzz.tri", src)
		if file == nil {
			return
		}
		Check(file)
		for _, fn := range file.Funcs {
			k, diags := Specialize(file, fn.Name, fuzzSignature(fn))
			for _, d := range diags.Items {
				if strings.Contains(d.Message, "internal error") {
					t.Fatalf("%s: %s", fn.Name, d.Message)
				}
			}
			if k != nil {
				if err := ir.Verify(k); err != nil {
					t.Fatalf("%s: %v", fn.Name, err)
				}
				ir.Print(&strings.Builder{}, k)
			}
		}
	})
}
