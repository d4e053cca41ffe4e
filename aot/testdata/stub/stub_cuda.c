/* Stand-ins for the driver functions the generated C calls: they record
   what they were given, for main.c to print. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "stub.h"

struct stub_record stub;

static int module_token, function_token;

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  *pStr = error == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_STUB";
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  (void)dev;
  const char *cc = getenv("STUB_CC"); /* "86" */
  int v = cc != NULL ? atoi(cc) : 80;
  *pi = attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? v / 10 : v % 10;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  /* The images of the tests are NUL-terminated text. */
  snprintf(stub.image, sizeof stub.image, "%s", (const char *)image);
  stub.loads++;
  *module = (CUmodule)&module_token;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
  (void)hmod;
  snprintf(stub.function, sizeof stub.function, "%s", name);
  *hfunc = (CUfunction)&function_token;
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod) {
  (void)hmod;
  stub.unloads++;
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  (void)hfunc;
  if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    stub.shared_limit = value;
  }
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
  (void)f;
  (void)hStream;
  (void)extra;
  stub.launches++;
  stub.grid[0] = gridDimX;
  stub.grid[1] = gridDimY;
  stub.grid[2] = gridDimZ;
  stub.block[0] = blockDimX;
  stub.block[1] = blockDimY;
  stub.block[2] = blockDimZ;
  stub.shared = sharedMemBytes;
  /* The arguments are copied now: they point into the launcher's frame. */
  for (int i = 0; i < stub.nargs; i++) {
    memcpy(stub.args[i], kernelParams[i], stub.arg_sizes[i]);
  }
  return CUDA_SUCCESS;
}
