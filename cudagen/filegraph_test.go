package cudagen_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFileUsesRunOneWay: no file of cudagen uses, directly or through
// other files, a definition of a file that uses one of its own (doc.go's
// order: the records and planning passes at the bottom, the emitter's
// core, the printers, stmt.go and ops.go, the walk and generate.go at the
// top). A file uses another where it names a package-level definition of
// it, or a method or field of one of its types, as the type checker
// resolves the name. A circle of files fails the test with the names that
// tie it. Without a go tool to compile the imports it skips.
func TestFileUsesRunOneWay(t *testing.T) {
	edges := fileUses(t)
	n := 0
	for _, to := range edges {
		n += len(to)
	}
	// The graph is real: the files do use one another.
	require.Greater(t, n, 200, "file uses found")
	require.Contains(t, edges["stmt.go"], "ops.go")
	for _, c := range circles(edges) {
		var ties []string
		for _, a := range c {
			for _, b := range c {
				if names := edges[a][b]; len(names) > 0 {
					ties = append(ties, fmt.Sprintf("%s -> %s: %s", a, b, strings.Join(names, " ")))
				}
			}
		}
		sort.Strings(ties)
		t.Errorf("files that use one another: %s\n  %s", strings.Join(c, ", "), strings.Join(ties, "\n  "))
	}
}

// fileUses type-checks the package's files (tests left out) against the
// export data of its imports, and returns for each file the files whose
// definitions it uses, with the names used.
func fileUses(t *testing.T) map[string]map[string][]string {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to compile the imports")
	}
	out, err := exec.Command(goTool, "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	require.NoError(t, err, "go list -export")
	export := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			export[path] = file
		}
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		if file, ok := export[path]; ok {
			return os.Open(file)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg, err := conf.Check("github.com/tri-lang/tri/cudagen", fset, files, info)
	require.NoError(t, err)

	fileOf := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }
	edges := map[string]map[string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() || !packageLevel(obj, pkg) {
			continue
		}
		from, to := fileOf(id.Pos()), fileOf(obj.Pos())
		if from == to {
			continue
		}
		if edges[from] == nil {
			edges[from] = map[string][]string{}
		}
		if !slices.Contains(edges[from][to], obj.Name()) {
			edges[from][to] = append(edges[from][to], obj.Name())
		}
	}
	for _, to := range edges {
		for _, names := range to {
			sort.Strings(names)
		}
	}
	return edges
}

// packageLevel reports whether obj is a definition a file can share with
// others: declared at package level, or a method or field.
func packageLevel(obj types.Object, pkg *types.Package) bool {
	switch o := obj.(type) {
	case *types.Func:
		return o.Parent() == pkg.Scope() || o.Signature().Recv() != nil
	case *types.Var:
		return o.Parent() == pkg.Scope() || o.IsField()
	case *types.TypeName, *types.Const:
		return o.Parent() == pkg.Scope()
	}
	return false
}

// circles returns the strongly connected components of more than one
// file (Tarjan), each sorted.
func circles(edges map[string]map[string][]string) [][]string {
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		on[v] = true
		var next []string
		for w := range edges[v] {
			next = append(next, w)
		}
		sort.Strings(next)
		for _, w := range next {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var c []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			c = append(c, w)
			if w == v {
				break
			}
		}
		if len(c) > 1 {
			sort.Strings(c)
			out = append(out, c)
		}
	}
	var files []string
	for f := range edges {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return out
}
