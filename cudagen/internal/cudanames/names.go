// Package cudanames reads, out of NVIDIA's files, the names that CUDA C
// compiled by NVRTC declares at global scope, which a kernel, parameter or
// local named in the source must not take (a kernel named atomicAdd fails
// to compile; one named vprintf crashes NVRTC). Its command, gen, writes
// them into cudagen's table (cudanames.go), also taking the committed
// lists of names read from newer NVRTCs' builtins libraries
// (nvrtc-VERSION.txt, lists.go); the GPU test of cudagen reads the NVRTC it
// runs to check that the table holds all of that version's.
//
// A name is collected where it is declared at global scope: a macro, a
// function or function template, a variable, a typedef or using alias, a
// struct, union, class or enum and the enumerators of an unscoped enum.
// Names declared inside a namespace, a class or a function body are not
// global and are left out.
package cudanames

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// FromBuiltins returns the names of NVRTC's builtins library
// (libnvrtc-builtins.so): it holds the text of the headers NVRTC includes
// implicitly (the device part of cuda_runtime.h: host_defines.h,
// device_types.h, the vector types, device_functions.h, the atomic and
// sm_*_intrinsics headers, math_functions.h, the device runtime API), whose
// declarations are read, and the symbol table of its precompiled device
// code, whose C++ names are read from their mangling.
func FromBuiltins(lib []byte) []string {
	var out []string
	for _, text := range headerTexts(lib) {
		out = append(out, Declared(text)...)
	}
	return append(out, mangledNames(lib)...)
}

// PTXSystemCalls are the functions PTX code calls by name (PTX ISA,
// "System Calls"): device printf lowers to vprintf, device malloc and free
// to malloc and free, dynamic parallelism to the cudaGetParameterBuffer and
// cudaLaunchDevice calls.
var PTXSystemCalls = []string{"vprintf", "malloc", "free", "__assertfail",
	"cudaGetParameterBuffer", "cudaGetParameterBufferV2", "cudaLaunchDevice", "cudaLaunchDeviceV2"}

// headerTexts finds the header texts stored in the builtins library: long
// runs of printable text that hold preprocessor lines.
func headerTexts(lib []byte) []string {
	var texts []string
	start := -1
	for i := 0; i <= len(lib); i++ {
		printable := i < len(lib) && (lib[i] >= 0x20 && lib[i] < 0x7f || lib[i] == '\n' || lib[i] == '\t' || lib[i] == '\r')
		if printable {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 256 {
			t := string(lib[start:i])
			if strings.Contains(t, "\n#") || strings.HasPrefix(t, "#") {
				texts = append(texts, t)
			}
		}
		start = -1
	}
	return texts
}

var mangled = regexp.MustCompile(`_Z(?:N?K?)(\d+)([A-Za-z_][A-Za-z0-9_]*)`)

// mangledNames reads the unqualified names of the functions of the
// library's precompiled device code from their Itanium mangling
// (_Z9atomicAddPii is atomicAdd); names in a namespace (_ZN...) and
// operators are skipped.
func mangledNames(lib []byte) []string {
	var out []string
	for _, m := range mangled.FindAllSubmatch(lib, -1) {
		if bytes.HasPrefix(m[0], []byte("_ZN")) {
			continue
		}
		n, err := strconv.Atoi(string(m[1]))
		if err != nil || n <= 0 || n > len(m[2]) {
			continue
		}
		out = append(out, string(m[2][:n]))
	}
	return out
}

// HeaderFiles lists the device-side headers of an include folder.
func HeaderFiles(dir string) ([]string, error) {
	var out []string
	device := regexp.MustCompile(`^(crt/.*|device_.*|sm_\d+_.*|math_.*|vector_.*|builtin_types|driver_types|surface_types|texture_types|` +
		`library_types|host_defines|common_functions|cuda_fp16|cuda_bf16|cuda_fp8|cuda_device_runtime_api|cuda_runtime|cuda_runtime_api|` +
		`cuda_surface_types|cuda_texture_types|texture_indirect_functions|surface_indirect_functions)\.hp?p?$`)
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if device.MatchString(filepath.ToSlash(rel)) {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

var libdeviceDef = regexp.MustCompile(`(?m)^(?:define|declare) [^@\n]*@([A-Za-z_][A-Za-z0-9_]*)\(`)

// LibdeviceNames are the functions libdevice defines, read from its text
// as llvm-dis writes it.
func LibdeviceNames(ll string) []string {
	var out []string
	for _, m := range libdeviceDef.FindAllStringSubmatch(ll, -1) {
		out = append(out, m[1])
	}
	return out
}

// IsIdent reports whether s is a C identifier.
func IsIdent(s string) bool { return identRe.MatchString(s) }
