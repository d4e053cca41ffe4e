package apizero

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tri-lang/tri"
	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// api lists, per package (its folder from the module root; "." is package
// tri, the Go API at the root), its exported functions and the exported
// types whose methods are called.
var api = []struct {
	dir   string
	funcs map[string]any
	types []reflect.Type
}{
	{".", map[string]any{
		"CDiv": tri.CDiv, "NewBuffer": tri.NewBuffer, "NewStream": tri.NewStream,
		"Parse": tri.Parse, "ParseFile": tri.ParseFile,
	}, []reflect.Type{reflect.TypeFor[tri.Buffer](), reflect.TypeFor[tri.Diagnostic](), reflect.TypeFor[tri.Error](), reflect.TypeFor[tri.File](), reflect.TypeFor[tri.Kernel](), reflect.TypeFor[tri.Launch](), reflect.TypeFor[tri.Stream]()}},
	{"launch", map[string]any{
		"BenchFile": launch.BenchFile, "BuildFile": launch.BuildFile, "CheckFile": launch.CheckFile,
		"CompareTensors": launch.CompareTensors, "KernelGlobals": launch.KernelGlobals,
		"ParseFile": launch.ParseFile, "ParseSampleHeader": launch.ParseSampleHeader,
		"ParseSource": launch.ParseSource, "PrepareLine": launch.PrepareLine,
		"ParseSignature": launch.ParseSignature, "Prepare": launch.Prepare,
		"PrepareValues": launch.PrepareValues, "ReadSample": launch.ReadSample,
		"RunFile": launch.RunFile, "RuntimeSummary": launch.RuntimeSummary,
	}, []reflect.Type{reflect.TypeFor[launch.BenchOptions](), reflect.TypeFor[launch.BenchResult](), reflect.TypeFor[launch.Options](), reflect.TypeFor[launch.Outcome](), reflect.TypeFor[launch.Prepared](), reflect.TypeFor[launch.Sample](), reflect.TypeFor[launch.SourceFile]()}},
	{"gpu", map[string]any{
		"AssertionError": gpu.AssertionError, "Compile": gpu.Compile, "CompileCUDA": gpu.CompileCUDA,
		"CompileFor": gpu.CompileFor, "CompileReport": gpu.CompileReport, "Device": gpu.Device,
		"DeviceTarget": gpu.DeviceTarget, "FlushOutput": gpu.FlushOutput,
		"GenerateCUDA": gpu.GenerateCUDA, "NewTensors": gpu.NewTensors,
		"ResolveTarget": gpu.ResolveTarget, "Synchronize": gpu.Synchronize, "TargetArch": gpu.TargetArch,
	}, []reflect.Type{reflect.TypeFor[gpu.Arg](), reflect.TypeFor[gpu.Compiled](), reflect.TypeFor[gpu.Target](), reflect.TypeFor[gpu.Tensors]()}},
	{"tensor", map[string]any{
		"BF16Bits": tensor.BF16Bits, "BF16Float": tensor.BF16Float, "Deferred": tensor.Deferred, "LoadNPY": tensor.LoadNPY,
		"Make": tensor.Make, "New": tensor.New, "ReadNPY": tensor.ReadNPY,
		"SaveNPY": tensor.SaveNPY, "WriteNPY": tensor.WriteNPY,
	}, []reflect.Type{reflect.TypeFor[tensor.Tensor]()}},
	{"cudagen", map[string]any{
		"ArchVersion": cudagen.ArchVersion, "CheckArch": cudagen.CheckArch, "Describe": cudagen.Describe, "DumpLayouts": cudagen.DumpLayouts, "Generate": cudagen.Generate,
		"Lowers": cudagen.Lowers, "LowersLibdevice": cudagen.LowersLibdevice,
		"ReservedNames": cudagen.ReservedNames,
	}, []reflect.Type{reflect.TypeFor[cudagen.Blocked](), reflect.TypeFor[cudagen.Options](), reflect.TypeFor[cudagen.Param](), reflect.TypeFor[cudagen.Result](), reflect.TypeFor[cudagen.RowAxis](), reflect.TypeFor[cudagen.Slice](), reflect.TypeFor[cudagen.TensorMap](), reflect.TypeFor[cudagen.TileLayout]()}},
	{"hosteval", map[string]any{
		"ArchDevice": hosteval.ArchDevice, "AttachSource": hosteval.AttachSource,
		"BoolValue": hosteval.BoolValue, "CheckBlockShape": hosteval.CheckBlockShape,
		"CheckOutput": hosteval.CheckOutput, "DTypeValue": hosteval.DTypeValue,
		"DescValue": hosteval.DescValue, "ErrAt": hosteval.ErrAt, "Errf": hosteval.Errf,
		"ExitCode": hosteval.ExitCode, "FileKind": hosteval.FileKind, "FloatValue": hosteval.FloatValue,
		"IntValue": hosteval.IntValue, "LetSource": hosteval.LetSource, "NewEnv": hosteval.NewEnv,
		"NormalizeNewlines": hosteval.NormalizeNewlines, "Numeric": hosteval.Numeric,
		"ParseExpr": hosteval.ParseExpr, "ParseLaunch": hosteval.ParseLaunch, "Plural": hosteval.Plural,
		"PrintError": hosteval.PrintError, "ReadSource": hosteval.ReadSource, "StrValue": hosteval.StrValue,
		"TensorValue": hosteval.TensorValue, "TupleValue": hosteval.TupleValue, "Usage": hosteval.Usage,
	}, []reflect.Type{reflect.TypeFor[hosteval.Descriptor](), reflect.TypeFor[hosteval.DeviceInfo](), reflect.TypeFor[hosteval.Env](), reflect.TypeFor[hosteval.Lambda](), reflect.TypeFor[hosteval.Launch](), reflect.TypeFor[hosteval.Source](), reflect.TypeFor[hosteval.Value](), reflect.TypeFor[hosteval.ValueKind]()}},
	{"bind", map[string]any{
		"Args": bind.Args, "MaxNRegValue": bind.MaxNRegValue, "NumCTAsProblem": bind.NumCTAsProblem,
		"NumStagesProblem": bind.NumStagesProblem, "NumWarpsProblem": bind.NumWarpsProblem,
		"OrDefault": bind.OrDefault, "ParamNames": bind.ParamNames, "With": bind.With,
		"WithConfig": bind.WithConfig,
	}, []reflect.Type{reflect.TypeFor[bind.Binding](), reflect.TypeFor[bind.Bound]()}},
}

// skip names the calls left out, each with its reason; "NAME (odd)" leaves
// out only the call with odd arguments. Nothing else needs
// a GPU or blocks: with zero arguments every GPU entry point returns its
// error before reaching the device, and no function reads stdin.
var skip = map[string]string{
	"tensor.New (odd)":    "documented to panic on a negative dimension: the constructor for shapes already checked; tensor.Make returns the error",
	"tensor.Tensor.Float": "an element accessor without an error result: an index outside the tensor panics, as indexing a slice does (documented)",
	"tensor.Tensor.Int":   "an element accessor without an error result: an index outside the tensor panics, as indexing a slice does (documented)",
}

// TestEveryNameListed compares the tables with the exported functions and
// methods the packages' sources declare, so that a new one is called too.
func TestEveryNameListed(t *testing.T) {
	for _, pkg := range api {
		funcs, methods := exported(t, filepath.Join("..", "..", pkg.dir))
		for _, name := range funcs {
			if _, ok := pkg.funcs[name]; !ok {
				t.Errorf("%s.%s: an exported function the table in this test does not list", pkg.dir, name)
			}
		}
		listed := map[string]bool{}
		for _, typ := range pkg.types {
			listed[typ.Name()] = true
		}
		for _, recv := range methods {
			if !listed[recv] {
				t.Errorf("%s.%s: an exported type with methods the table in this test does not list", pkg.dir, recv)
			}
		}
	}
}

// exported returns the exported functions of the package in dir, and the
// exported non-interface types that declare exported methods, sorted.
func exported(t *testing.T, dir string) (funcs, recvs []string) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			if fd.Recv == nil {
				funcs = append(funcs, fd.Name.Name)
				continue
			}
			recv := fd.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok && id.IsExported() && !seen[id.Name] {
				seen[id.Name] = true
				recvs = append(recvs, id.Name)
			}
		}
	}
	sort.Strings(funcs)
	sort.Strings(recvs)
	return funcs, recvs
}

// TestNilAndZeroArguments calls each exported function with the zero value
// of every parameter (nil pointers, slices, maps, funcs and interfaces, ""
// and 0), and each exported method on a zero receiver (a struct built as
// T{} rather than by its constructor) with zero arguments too; then each
// again with odd numbers and texts (-1, NaN, "-1", one element for a
// variadic parameter: tensor.New(k, -1)). A nil
// pointer receiver is left out: as in Go's standard library, calling a
// method on the nil that a failed constructor returned beside its error
// is the caller's mistake.
func TestNilAndZeroArguments(t *testing.T) {
	start := time.Now()
	for _, pkg := range api {
		names := make([]string, 0, len(pkg.funcs))
		for name := range pkg.funcs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			for _, args := range []argFunc{zero, odd} {
				call(t, label(pkg.dir)+"."+name, reflect.ValueOf(pkg.funcs[name]), reflect.Value{}, args)
			}
		}
		for _, typ := range pkg.types {
			ptr := reflect.PointerTo(typ)
			for i := range ptr.NumMethod() {
				m := ptr.Method(i)
				for _, args := range []argFunc{zero, odd} {
					call(t, label(pkg.dir)+"."+typ.Name()+"."+m.Name, m.Func, reflect.New(typ), args)
				}
			}
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the calls took %v; keep this test under 10s", d)
	}
}

// label names the package in dir in messages: "tri" for the root.
func label(dir string) string {
	if dir == "." {
		return "tri"
	}
	return dir
}

// An argFunc makes the arguments of a call from the parameters' types
// (variadic: the type of its slice, which gets one element).
type argFunc struct {
	name  string
	value func(reflect.Type) reflect.Value
}

// zero is the zero value of each parameter.
var zero = argFunc{"nil and zero", reflect.Zero}

// odd is a value a careless caller passes where a number or a text is
// wanted (-1, NaN, "-1"); parameters of other types get their zero value.
var odd = argFunc{"odd", oddValue}

func oddValue(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(^uint64(0) >> (64 - t.Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(math.NaN())
	case reflect.String:
		v.SetString("-1")
	case reflect.Array:
		for i := range v.Len() {
			v.Index(i).Set(oddValue(t.Elem()))
		}
	}
	return v
}

// call calls fn with recv (if valid) and arguments made by args, and
// reports a panic as a failure, unless skip names the call.
func call(t *testing.T, name string, fn, recv reflect.Value, args argFunc) {
	for _, key := range []string{name, name + " (" + args.name + ")"} {
		if why, ok := skip[key]; ok {
			if args.name == zero.name || key != name {
				t.Logf("%s: skipped: %s", key, why)
			}
			return
		}
	}
	ft := fn.Type()
	var in []reflect.Value
	first := 0
	if recv.IsValid() {
		in = append(in, recv)
		first = 1
	}
	n := ft.NumIn()
	if ft.IsVariadic() {
		n--
	}
	for i := first; i < n; i++ {
		in = append(in, args.value(ft.In(i)))
	}
	if ft.IsVariadic() {
		rest := reflect.MakeSlice(ft.In(n), 1, 1)
		rest.Index(0).Set(args.value(ft.In(n).Elem()))
		in = append(in, rest)
	}
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panicked on %s arguments: %v", name, args.name, r)
		}
	}()
	if ft.IsVariadic() {
		fn.CallSlice(in)
	} else {
		fn.Call(in)
	}
}
