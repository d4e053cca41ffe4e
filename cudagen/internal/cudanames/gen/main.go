// Command gen writes cudagen's table (cudanames.go) of the names that CUDA
// C compiled by NVRTC declares at global scope (see package cudanames). It
// has two kinds of input. The first is NVIDIA's own files, which are not
// kept in the repository:
//
//   - -builtins: NVRTC's builtins libraries (libnvrtc-builtins.so), one or
//     more versions, comma-separated (cudanames.FromBuiltins);
//   - -include: a CUDA include folder (crt/, device_*.h, sm_*.h, math_*.h,
//     vector_*.h, cuda_fp16.h, cuda_bf16.h, cuda_fp8.h and the type
//     headers), for what a kernel could include;
//   - -libdevice: libdevice.10.bc disassembled by llvm-dis, for the __nv_
//     functions NVVM links;
//   - and the PTX system calls (cudanames.PTXSystemCalls).
//
// The second is the committed lists of names, cudanames/nvrtc-VERSION.txt,
// each read from the builtins library of a newer NVRTC (cudanames.Lists),
// always added. With -list, gen writes such a list instead: on a machine
// with that NVRTC (a GPU machine, say), from the repository root,
//
//	go run ./cudagen/internal/cudanames/gen -list -builtins LIB -o cudagen/internal/cudanames/nvrtc-VERSION.txt
//
// reads the library LIB (libnvrtc-builtins.so.VERSION; TestCUDANamesTableGPU
// prints this command with the library its NVRTC loads) as FromBuiltins
// does and writes its names; commit the list and regenerate the table.
//
// The table written is sorted and deduplicated. The committed one was made
// from CUDA 12.4 and 12.5 (Debian's libnvrtc-builtins12.4 12.4.127 and
// libnvrtc-builtins12.5 12.5.40, nvidia-cuda-dev 12.4.127 and the libdevice
// of nvidia-cuda-toolkit 12.4.131) and the lists, in cudagen:
//
//	llvm-dis libdevice.10.bc -o libdevice.ll
//	go run ./internal/cudanames/gen -o cudanames.go -version '12.4 and 12.5' \
//	    -builtins libnvrtc-builtins.so.12.4.127,libnvrtc-builtins.so.12.5.40 \
//	    -include include -libdevice libdevice.ll
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/cudagen/internal/cudanames"
)

// minBuiltinsNames is fewer names than FromBuiltins reads from any builtins
// library (about 2350 from CUDA 12.4's, 4100 from 13.0's): a file giving
// fewer is not one.
const minBuiltinsNames = 1000

func main() {
	out := flag.String("o", "", "the file to write: the Go table (default cudanames.go), or with -list the list (nvrtc-VERSION.txt)")
	listMode := flag.Bool("list", false, "write the names of one builtins library (-builtins) as a list, not the table")
	version := flag.String("version", "", "the CUDA version the files come from, e.g. 12.4 (written in the table's comment)")
	builtins := flag.String("builtins", "", "NVRTC's builtins libraries (libnvrtc-builtins.so), comma-separated: the names of all are kept")
	include := flag.String("include", "", "a CUDA include folder")
	libdevice := flag.String("libdevice", "", "libdevice.10.bc disassembled by llvm-dis")
	flag.Parse()
	if *listMode {
		if *builtins == "" || strings.Contains(*builtins, ",") || !cudanames.IsListFile(filepath.Base(*out)) {
			log.Fatal("usage: gen -list -builtins LIB -o DIR/nvrtc-VERSION.txt")
		}
		if err := writeList(*builtins, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *out == "" {
		*out = "cudanames.go"
	}
	if *builtins == "" || *include == "" || *libdevice == "" || *version == "" {
		log.Fatal("usage: gen -o FILE -version V -builtins LIB -include DIR -libdevice FILE.ll")
	}
	names := map[string]bool{}
	add := func(from string, ns []string) {
		if len(ns) == 0 {
			log.Fatalf("%s: no names found", from)
		}
		for _, n := range ns {
			if cudanames.IsIdent(n) {
				names[n] = true
			}
		}
	}
	for _, path := range strings.Split(*builtins, ",") {
		lib, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		add(path, cudanames.FromBuiltins(lib))
	}
	files, err := cudanames.HeaderFiles(*include)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		if ns := cudanames.Declared(string(text)); len(ns) > 0 {
			add(f, ns)
		}
	}
	ll, err := os.ReadFile(*libdevice)
	if err != nil {
		log.Fatal(err)
	}
	add(*libdevice, cudanames.LibdeviceNames(string(ll)))
	add("PTX system calls", cudanames.PTXSystemCalls)
	lists, err := cudanames.Lists()
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range lists {
		add(l.File, l.Names)
	}
	var list []string
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	src, err := format.Source(render(list, *version, lists))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// writeList writes to out the list of the names of the builtins library
// at lib.
func writeList(lib, out string) error {
	data, err := os.ReadFile(lib)
	if err != nil {
		return err
	}
	names := cudanames.FromBuiltins(data)
	if len(names) < minBuiltinsNames {
		return fmt.Errorf("%s: %d names read; is it NVRTC's builtins library?", lib, len(names))
	}
	return os.WriteFile(out, cudanames.ListText(lib, out, names), 0o644)
}

func render(names []string, version string, lists []cudanames.List) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by cudagen/internal/cudanames/gen; DO NOT EDIT.\n\n")
	b.WriteString("package cudagen\n\n")
	text := fmt.Sprintf("cudaNames are the %d names that CUDA C under NVRTC declares at global scope "+
		"(CUDA %s: the implicit headers, the CUDA headers, libdevice and the PTX system calls", len(names), version)
	for _, l := range lists {
		text += fmt.Sprintf("; NVRTC %s: its builtins library, listed in internal/cudanames/%s", l.Version, l.File)
	}
	text += "), which a C name made from a source name must not take."
	b.WriteString(wrap(text, "// ", 80))
	b.WriteString("var cudaNames = []string{\n")
	line := ""
	for _, n := range names {
		q := strconv.Quote(n) + ", "
		if len(line)+len(q) > 100 {
			b.WriteString(line + "\n")
			line = ""
		}
		line += q
	}
	b.WriteString(line + "\n}\n")
	return b.Bytes()
}

// wrap breaks text into lines of at most width bytes, each starting with
// prefix.
func wrap(text, prefix string, width int) string {
	var b strings.Builder
	line := prefix
	for _, w := range strings.Fields(text) {
		if line != prefix && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	return b.String() + line + "\n"
}
