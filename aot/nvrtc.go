package aot

// This file implements the C of the source form that compiles the kernel
// when the library loads: picking the architecture of the current GPU,
// opening libnvrtc with dlopen where tri's nvrtc package looks for it, and
// compiling. NVRTC's functions are declared here, after nvrtc.h, rather
// than included, so that building the library needs only cuda.h.

import "fmt"

// nvrtcFuncs prints tri_arch, tri_open_nvrtc, tri_symbol and tri_compile.
func (e *export) nvrtcFuncs(w *cWriter) {
	e.archFunc(w)
	w.line("")
	w.comment("", "The parts of NVRTC's API that tri_compile calls, looked up with dlsym. nvrtcResult is an enum whose success is 0; nvrtcProgram is a pointer to an opaque struct.")
	w.line("typedef struct tri_nvrtc_program *tri_nvrtc_program;")
	w.line("typedef struct {")
	w.line("  int (*create)(tri_nvrtc_program *prog, const char *src, const char *name, int num_headers,")
	w.line("                const char *const *headers, const char *const *include_names);")
	w.line("  int (*compile)(tri_nvrtc_program prog, int num_options, const char *const *options);")
	w.line("  int (*log_size)(tri_nvrtc_program prog, size_t *size);")
	w.line("  int (*log)(tri_nvrtc_program prog, char *log);")
	w.line("  int (*cubin_size)(tri_nvrtc_program prog, size_t *size);")
	w.line("  int (*cubin)(tri_nvrtc_program prog, char *cubin);")
	w.line("  int (*destroy)(tri_nvrtc_program *prog);")
	w.line("} tri_nvrtc_api;")
	w.line("")
	w.comment("", "tri_open_nvrtc opens libnvrtc where tri looks for it: $TRI_NVRTC, $CUDA_HOME/lib64, /usr/local/cuda/lib64, then the loader's path.")
	w.line("static void *tri_open_nvrtc(void) {")
	w.line(`  const char *env = getenv("TRI_NVRTC");`)
	w.line(`  if (env != NULL && env[0] != '\0') {`)
	w.line("    return dlopen(env, RTLD_NOW | RTLD_LOCAL);")
	w.line("  }")
	w.line(`  const char *home = getenv("CUDA_HOME");`)
	w.line(`  if (home != NULL && home[0] != '\0') {`)
	w.line("    char path[4096];")
	w.line(`    int n = snprintf(path, sizeof path, "%%s/lib64/libnvrtc.so", home);`)
	w.line("    void *lib = n > 0 && (size_t)n < sizeof path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;")
	w.line("    if (lib != NULL) {")
	w.line("      return lib;")
	w.line("    }")
	w.line("  }")
	w.line(`  static const char *const names[] = {"/usr/local/cuda/lib64/libnvrtc.so", "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};`)
	w.line("  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {")
	w.line("    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);")
	w.line("    if (lib != NULL) {")
	w.line("      return lib;")
	w.line("    }")
	w.line("  }")
	w.line("  return NULL;")
	w.line("}")
	w.line("")
	w.comment("", "tri_symbol looks name up in lib and stores it in the function pointer at fn, by memcpy: C has no conversion from dlsym's void * to a function pointer.")
	w.line("static int tri_symbol(void *lib, const char *name, void *fn, size_t size) {")
	w.line("  void *sym = dlsym(lib, name);")
	w.line("  if (sym == NULL || size != sizeof sym) {")
	w.line("    return 0;")
	w.line("  }")
	w.line("  memcpy(fn, &sym, size);")
	w.line("  return 1;")
	w.line("}")
	w.line("")
	e.compileFunc(w)
}

// archFunc prints tri_arch, which picks NVRTC's --gpu-architecture for the
// GPU of the current context.
func (e *export) archFunc(w *cWriter) {
	a := e.arch
	if a.exact {
		w.comment("", fmt.Sprintf("tri_arch writes NVRTC's --gpu-architecture for the GPU of the current context: the CUDA was generated for %s, whose instructions only GPUs of compute capability %d.%d run.", a.name, a.cc/10, a.cc%10))
	} else {
		w.comment("", fmt.Sprintf("tri_arch writes NVRTC's --gpu-architecture for the GPU of the current context: its own, as the CUDA was generated for %s, which every later GPU runs.", a.name))
	}
	w.line("static CUresult tri_arch(char *option, size_t size) {")
	w.line("  CUdevice dev;")
	w.line("  int major = 0, minor = 0;")
	w.line("  CUresult err = cuCtxGetDevice(&dev);")
	w.line("  if (err != CUDA_SUCCESS) {")
	w.line(`    return tri_fail(err, "no current CUDA context to load the kernel into (cuCtxGetDevice)");`)
	w.line("  }")
	w.line("  err = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);")
	w.line("  if (err == CUDA_SUCCESS) {")
	w.line("    err = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);")
	w.line("  }")
	w.line("  if (err != CUDA_SUCCESS) {")
	w.line(`    return tri_fail(err, "cannot read the GPU's compute capability (cuDeviceGetAttribute)");`)
	w.line("  }")
	if a.exact {
		w.line("  if (10 * major + minor != %d) {", a.cc)
		w.line(`    return tri_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "the kernel's CUDA was generated for %s, which runs on compute capability %d.%d only; `+
			`this GPU is %%d.%%d: build the library for it (tri build --aot --arch)", major, minor);`, a.name, a.cc/10, a.cc%10)
		w.line("  }")
		w.line(`  snprintf(option, size, "--gpu-architecture=%s");`, a.name)
	} else {
		w.line("  if (10 * major + minor < %d) {", a.cc)
		w.line(`    return tri_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "the kernel's CUDA was generated for %s; this GPU, of compute capability %%d.%%d, is older", major, minor);`, a.name)
		w.line("  }")
		w.line(`  snprintf(option, size, "--gpu-architecture=sm_%%d%%d", major, minor);`)
	}
	w.line("  return CUDA_SUCCESS;")
	w.line("}")
}

// compileFunc prints tri_compile, which compiles tri_cuda for one
// architecture with NVRTC.
func (e *export) compileFunc(w *cWriter) {
	w.comment("", "tri_compile compiles tri_cuda with NVRTC under the option arch, into *cubin (malloc'd), or records why it cannot.")
	w.line("static CUresult tri_compile(const char *arch, char **cubin) {")
	w.line("  void *lib = tri_open_nvrtc();")
	w.line("  if (lib == NULL) {")
	w.line(`    return tri_fail(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "cannot find libnvrtc to compile the kernel ` +
		`(looked at $TRI_NVRTC, $CUDA_HOME/lib64, /usr/local/cuda/lib64 and the loader's path; set TRI_NVRTC to its path); the last try: %%s", dlerror());`)
	w.line("  }")
	w.line("  tri_nvrtc_api api;")
	w.line(`  if (!tri_symbol(lib, "nvrtcCreateProgram", &api.create, sizeof api.create) ||`)
	w.line(`      !tri_symbol(lib, "nvrtcCompileProgram", &api.compile, sizeof api.compile) ||`)
	w.line(`      !tri_symbol(lib, "nvrtcGetProgramLogSize", &api.log_size, sizeof api.log_size) ||`)
	w.line(`      !tri_symbol(lib, "nvrtcGetProgramLog", &api.log, sizeof api.log) ||`)
	w.line(`      !tri_symbol(lib, "nvrtcGetCUBINSize", &api.cubin_size, sizeof api.cubin_size) ||`)
	w.line(`      !tri_symbol(lib, "nvrtcGetCUBIN", &api.cubin, sizeof api.cubin) ||`)
	w.line(`      !tri_symbol(lib, "nvrtcDestroyProgram", &api.destroy, sizeof api.destroy)) {`)
	w.line("    dlclose(lib);")
	w.line(`    return tri_fail(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "the libnvrtc found has no cubin output (NVRTC 11.1 or newer is needed)");`)
	w.line("  }")
	w.line("  tri_nvrtc_program prog = NULL;")
	w.line("  if (api.create(&prog, tri_cuda, %s, 0, NULL, NULL) != 0) {", cString(e.name+".cu"))
	w.line("    dlclose(lib);")
	w.line(`    return tri_fail(CUDA_ERROR_OUT_OF_MEMORY, "nvrtcCreateProgram failed");`)
	w.line("  }")
	w.line("  const char *options[TRI_NVRTC_OPTIONS + 1] = {arch};")
	w.line("  for (int i = 0; i < TRI_NVRTC_OPTIONS; i++) {")
	w.line("    options[i + 1] = tri_nvrtc_options[i];")
	w.line("  }")
	w.line("  CUresult err = CUDA_SUCCESS;")
	w.line("  size_t size = 0;")
	w.line("  if (api.compile(prog, TRI_NVRTC_OPTIONS + 1, options) != 0) {")
	w.line("    char *log = NULL;")
	w.line("    if (api.log_size(prog, &size) == 0 && (log = malloc(size + 1)) != NULL && api.log(prog, log) == 0) {")
	w.line("      log[size] = '\\0';")
	w.line("    } else if (log != NULL) {")
	w.line("      log[0] = '\\0';")
	w.line("    }")
	w.line(`    err = tri_fail(CUDA_ERROR_INVALID_SOURCE, "NVRTC rejected the kernel's CUDA (%%s), an internal error of tri:\n%%s", arch, log != NULL ? log : "");`)
	w.line("    free(log);")
	w.line("  } else if (api.cubin_size(prog, &size) != 0 || (*cubin = malloc(size)) == NULL || api.cubin(prog, *cubin) != 0) {")
	w.line("    free(*cubin);")
	w.line("    *cubin = NULL;")
	w.line(`    err = tri_fail(CUDA_ERROR_OUT_OF_MEMORY, "cannot read the cubin NVRTC compiled");`)
	w.line("  }")
	w.line("  api.destroy(&prog);")
	w.line("  dlclose(lib);")
	w.line("  return err;")
	w.line("}")
}
