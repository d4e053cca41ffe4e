package aot

// This file implements the printing of NAME.c: the embedded kernel, the
// loader (with NVRTC at load for the source form, nvrtc.go) and the
// launcher.

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits of a launch's grid (CUDA's for every GPU tri targets).
const (
	maxGridX  = 1<<31 - 1
	maxGridYZ = 65535
)

// launcherLocals are the launcher's own names, which its parameters must
// not take.
var launcherLocals = []string{"stream", "grid_x", "grid_y", "grid_z", "args", "err"}

// cFile prints NAME.c.
func (e *export) cFile() string {
	w := &cWriter{}
	e.banner(w)
	w.line("")
	w.line("#include %q", e.name+".h")
	w.line("")
	if e.opt.Cubin == nil {
		w.line("#include <dlfcn.h>")
	}
	w.line("#include <stdarg.h>")
	w.line("#include <stddef.h>")
	w.line("#include <stdio.h>")
	if e.opt.Cubin == nil {
		w.line("#include <stdlib.h>")
		w.line("#include <string.h>")
	}
	w.line("")
	w.comment("", fmt.Sprintf("What a launch takes besides its arguments: 32 * num_warps threads per program, and the dynamic shared memory the kernel was generated for (%s).", sharedNote(e.sharedMem)))
	w.line("#define TRI_THREADS %d", e.threads)
	w.line("#define TRI_SHARED_BYTES %d", e.sharedMem)
	w.comment("", "The kernel's name in the module: its extern \"C\" __global__ function.")
	w.line("#define TRI_KERNEL %s", cString(e.res.Kernel))
	w.line("")
	w.line("static CUmodule tri_module;")
	w.line("static CUfunction tri_function;")
	w.line("static char tri_error[8192];")
	w.line("")
	if e.opt.Cubin != nil {
		e.cubinArray(w)
	} else {
		e.sourceString(w)
	}
	w.line("")
	e.failFunc(w)
	if e.opt.Cubin == nil {
		w.line("")
		e.nvrtcFuncs(w)
	}
	w.line("")
	e.loadFunc(w)
	w.line("")
	e.exported(w)
	return w.b.String()
}

func sharedNote(bytes int) string {
	switch {
	case bytes == 0:
		return "none: its shared memory is static"
	case bytes > 48<<10:
		return fmt.Sprintf("%d bytes, more than the 48 KiB a launch gets without asking, so loading raises the kernel's limit", bytes)
	}
	return fmt.Sprintf("%d bytes", bytes)
}

// cubinArray embeds the cubin, 16 bytes a line.
func (e *export) cubinArray(w *cWriter) {
	w.comment("", fmt.Sprintf("The kernel's cubin for %s (%d bytes), compiled by NVRTC when tri built this file.", e.arch.name, len(e.opt.Cubin)))
	w.line("static const unsigned char tri_cubin[%d] = {", len(e.opt.Cubin))
	for i := 0; i < len(e.opt.Cubin); i += 16 {
		row := e.opt.Cubin[i:min(i+16, len(e.opt.Cubin))]
		hex := make([]string, len(row))
		for j, b := range row {
			hex[j] = fmt.Sprintf("0x%02x", b)
		}
		w.line("    %s,", strings.Join(hex, ", "))
	}
	w.line("};")
}

// sourceString embeds the CUDA C, one string literal a line.
func (e *export) sourceString(w *cWriter) {
	w.comment("", fmt.Sprintf("The kernel's CUDA C, as tri build writes it for %s; the first load compiles it with NVRTC.", e.arch.name))
	w.line("static const char tri_cuda[] =")
	lines := strings.SplitAfter(e.res.Source, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		end := ""
		if i == len(lines)-1 {
			end = ";"
		}
		w.line("    %s%s", cString(l), end)
	}
	if len(lines) == 0 {
		w.line(`    "";`)
	}
	var opts []string
	for _, o := range e.opt.NVRTCOptions {
		opts = append(opts, cString(o))
	}
	w.line("")
	w.comment("", "NVRTC's options besides the architecture: those tri compiles the kernel with.")
	if len(opts) == 0 {
		// C has no empty initializer list before C23.
		opts = []string{"NULL"}
		w.line("static const char *const tri_nvrtc_options[] = {%s};", strings.Join(opts, ", "))
		w.line("#define TRI_NVRTC_OPTIONS 0")
		return
	}
	w.line("static const char *const tri_nvrtc_options[] = {%s};", strings.Join(opts, ", "))
	w.line("#define TRI_NVRTC_OPTIONS %d", len(opts))
}

// failFunc prints tri_fail, which records why loading failed.
func (e *export) failFunc(w *cWriter) {
	w.comment("", fmt.Sprintf("tri_fail records why loading failed, for %s_error, and returns err.", e.name))
	w.line("static CUresult tri_fail(CUresult err, const char *format, ...) {")
	w.line("  const char *name = NULL;")
	w.line("  if (cuGetErrorName(err, &name) != CUDA_SUCCESS || name == NULL) {")
	w.line(`    name = "an unknown CUresult";`)
	w.line("  }")
	w.line(`  int n = snprintf(tri_error, sizeof tri_error, "%%s: %%s: ", %s, name);`, cString(e.name))
	w.line("  if (n > 0 && (size_t)n < sizeof tri_error) {")
	w.line("    va_list args;")
	w.line("    va_start(args, format);")
	w.line("    vsnprintf(tri_error + n, sizeof tri_error - (size_t)n, format, args);")
	w.line("    va_end(args);")
	w.line("  }")
	w.line("  return err;")
	w.line("}")
}

// loadFunc prints tri_load, which loads the module and its kernel once.
func (e *export) loadFunc(w *cWriter) {
	w.comment("", "tri_load loads the kernel into the current context, once.")
	w.line("static CUresult tri_load(void) {")
	w.line("  if (tri_function != NULL) {")
	w.line("    return CUDA_SUCCESS;")
	w.line("  }")
	if e.opt.Cubin != nil {
		w.line("  CUresult err = cuModuleLoadData(&tri_module, tri_cubin);")
		w.line("  if (err != CUDA_SUCCESS) {")
		w.line(`    return tri_fail(err, "cuModuleLoadData could not load the embedded cubin for %s; `+
			`if this GPU does not run %s code, build the library for it (tri build --aot --arch), or with --embed source to compile it when it loads");`,
			e.arch.name, e.arch.name)
		w.line("  }")
	} else {
		w.line("  char arch[64];")
		w.line("  CUresult err = tri_arch(arch, sizeof arch);")
		w.line("  if (err != CUDA_SUCCESS) {")
		w.line("    return err;")
		w.line("  }")
		w.line("  char *cubin = NULL;")
		w.line("  err = tri_compile(arch, &cubin);")
		w.line("  if (err != CUDA_SUCCESS) {")
		w.line("    return err;")
		w.line("  }")
		w.line("  err = cuModuleLoadData(&tri_module, cubin);")
		w.line("  free(cubin);")
		w.line("  if (err != CUDA_SUCCESS) {")
		w.line(`    return tri_fail(err, "cuModuleLoadData could not load the cubin NVRTC compiled (%%s)", arch);`)
		w.line("  }")
	}
	w.line("  err = cuModuleGetFunction(&tri_function, tri_module, TRI_KERNEL);")
	if e.sharedMem > 0 {
		w.line("  if (err == CUDA_SUCCESS) {")
		w.line("    err = cuFuncSetAttribute(tri_function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, TRI_SHARED_BYTES);")
		w.line("  }")
	}
	w.line("  if (err != CUDA_SUCCESS) {")
	w.line("    cuModuleUnload(tri_module);")
	w.line("    tri_module = NULL;")
	w.line("    tri_function = NULL;")
	if e.sharedMem > 0 {
		w.line(`    return tri_fail(err, "the module has no kernel " TRI_KERNEL ", or the GPU cannot give it %d bytes of shared memory");`, e.sharedMem)
	} else {
		w.line(`    return tri_fail(err, "the module has no kernel " TRI_KERNEL);`)
	}
	w.line("  }")
	w.line("  tri_error[0] = '\\0';")
	w.line("  return CUDA_SUCCESS;")
	w.line("}")
}

// exported prints the helpers of the grid and the four exported functions.
func (e *export) exported(w *cWriter) {
	helpers := map[string]string{
		"cdiv": "static int64_t tri_cdiv(int64_t a, int64_t b) { return a / b + (a % b > 0); }",
		"max":  "static int64_t tri_max(int64_t a, int64_t b) { return a > b ? a : b; }",
		"min":  "static int64_t tri_min(int64_t a, int64_t b) { return a < b ? a : b; }",
	}
	if hs := e.grid.helpers(); len(hs) > 0 {
		w.comment("", "The grid's functions, on int64_t; its divisors are positive constants.")
		for _, h := range hs {
			w.line("%s", helpers[h])
		}
		w.line("")
	}
	w.line("CUresult %s(%s) {", e.name, e.signature())
	w.line("  CUresult err = tri_load();")
	w.line("  if (err != CUDA_SUCCESS) {")
	w.line("    return err;")
	w.line("  }")
	dims := [3]string{}
	var zero, bad []string
	w.comment("  ", "The grid "+e.gridLine+", in int64_t.")
	for i, d := range e.grid.dims {
		if d.isLit() {
			dims[i] = strconv.FormatInt(d.value, 10)
			continue
		}
		name := "grid_" + "xyz"[i:i+1]
		dims[i] = "(unsigned int)" + name
		w.line("  int64_t %s = %s;", name, d.cExpr())
		limit := maxGridYZ
		if i == 0 {
			limit = maxGridX
		}
		zero = append(zero, name+" == 0")
		bad = append(bad, fmt.Sprintf("%s < 0 || %s > %d", name, name, limit))
	}
	if len(zero) > 0 {
		w.line("  if (%s) {", strings.Join(zero, " || "))
		w.line("    return CUDA_SUCCESS;  // nothing to compute, as Triton launches no empty grid")
		w.line("  }")
		w.line("  if (%s) {", strings.Join(bad, " || "))
		w.line("    return CUDA_ERROR_INVALID_VALUE;")
		w.line("  }")
	}
	args := "NULL"
	if len(e.params) > 0 {
		var ptrs []string
		for _, p := range e.params {
			ptrs = append(ptrs, "&"+p.name)
		}
		w.line("  void *args[] = {%s};", strings.Join(ptrs, ", "))
		args = "args"
	}
	w.line("  return cuLaunchKernel(tri_function, %s, %s, %s, TRI_THREADS, 1, 1, TRI_SHARED_BYTES, stream, %s, NULL);", dims[0], dims[1], dims[2], args)
	w.line("}")
	w.line("")
	w.line("CUresult load_%s(void) {", e.name)
	w.line("  return tri_load();")
	w.line("}")
	w.line("")
	w.line("CUresult unload_%s(void) {", e.name)
	w.line("  if (tri_module == NULL) {")
	w.line("    return CUDA_SUCCESS;")
	w.line("  }")
	w.line("  CUresult err = cuModuleUnload(tri_module);")
	w.line("  tri_module = NULL;")
	w.line("  tri_function = NULL;")
	w.line("  return err;")
	w.line("}")
	w.line("")
	w.line("const char *%s_error(void) {", e.name)
	w.line("  return tri_error;")
	w.line("}")
}

// cString quotes s as a C string literal: quotes and backslashes escaped,
// newlines and tabs as \n and \t, other bytes outside printable ASCII as
// three-digit octal escapes (which, unlike \x, cannot run into the
// characters after them), and the second ? of ?? escaped, which would
// start a trigraph.
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		case c == '?' && i > 0 && s[i-1] == '?':
			b.WriteString(`\?`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
