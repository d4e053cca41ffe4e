/* A stand-in for libnvrtc, opened by the generated C through TRI_NVRTC:
   its "cubin" is the text "cubin for" and the options it was given, and
   it writes the source it was given to $STUB_NVRTC_SOURCE. With
   STUB_NVRTC_FAIL set, compiling fails with a log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char options[512];
static int program_token;
static const char fail_log[] = "add_kernel.cu(3): error: the stub refuses";

int nvrtcCreateProgram(void **prog, const char *src, const char *name, int num_headers,
                       const char *const *headers, const char *const *include_names) {
  (void)name;
  (void)num_headers;
  (void)headers;
  (void)include_names;
  const char *path = getenv("STUB_NVRTC_SOURCE");
  if (path != NULL) {
    FILE *f = fopen(path, "wb");
    if (f != NULL) {
      fputs(src, f);
      fclose(f);
    }
  }
  *prog = &program_token;
  return 0;
}

int nvrtcCompileProgram(void *prog, int num_options, const char *const *opts) {
  (void)prog;
  snprintf(options, sizeof options, "cubin for");
  for (int i = 0; i < num_options; i++) {
    size_t n = strlen(options);
    snprintf(options + n, sizeof options - n, " %s", opts[i]);
  }
  return getenv("STUB_NVRTC_FAIL") != NULL ? 6 : 0;
}

int nvrtcGetProgramLogSize(void *prog, size_t *size) {
  (void)prog;
  *size = sizeof fail_log;
  return 0;
}

int nvrtcGetProgramLog(void *prog, char *log) {
  (void)prog;
  memcpy(log, fail_log, sizeof fail_log);
  return 0;
}

int nvrtcGetCUBINSize(void *prog, size_t *size) {
  (void)prog;
  *size = strlen(options) + 1;
  return 0;
}

int nvrtcGetCUBIN(void *prog, char *cubin) {
  (void)prog;
  memcpy(cubin, options, strlen(options) + 1);
  return 0;
}

int nvrtcDestroyProgram(void **prog) {
  *prog = NULL;
  return 0;
}
