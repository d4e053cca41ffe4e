/* Calls the C libraries that `tri build --aot` exports for tutorial 01's
   add_kernel and tutorial 03's matmul_kernel (bench/aot_check.sh builds
   them), from plain C on the CUDA driver API, and compares the results with
   a CPU reference. Prints one RESULT line per launch:

     RESULT c FORM KERNEL SHAPE ok|FAIL max_abs_diff load_ms

   The add must match exactly. The matmul's inputs are multiples of 1/64
   in [-1, 1], whose products and sums are exact in fp32 in any order, so
   the GPU's fp16 result should equal the reference's bit for bit (the
   leaky ReLU and the rounding to fp16 are the same IEEE operations on both
   sides): max_abs_diff shows 0 then; it passes within the sample's
   tolerance (1e-2 absolute and relative). */
#define _POSIX_C_SOURCE 199309L  /* clock_gettime under -std=c11 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>

#include "add_kernel.h"
#include "matmul_kernel.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    CUresult check_err = (call);                                                     \
    if (check_err != CUDA_SUCCESS) {                                                 \
      const char *check_name = NULL;                                                 \
      cuGetErrorName(check_err, &check_name);                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
              check_name != NULL ? check_name : "an unknown error");                 \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

static const char *form = "?";
static int failures;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A small deterministic generator: the same inputs on every run. */
static uint32_t seed = 12345;
static uint32_t next_random(void) {
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}

/* fp16 <-> fp32, round to nearest even (the inputs here are exact). */
static uint16_t to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  int exp = (int)((x >> 23) & 0xffu) - 127 + 15;
  if (((x >> 23) & 0xffu) == 0xffu) {
    return (uint16_t)(sign | 0x7c00u | (mant != 0 ? 0x200u : 0));
  }
  if (exp >= 31) {
    return (uint16_t)(sign | 0x7c00u);
  }
  if (exp <= 0) {
    if (exp < -10) {
      return (uint16_t)sign;
    }
    mant |= 0x800000u;
    int shift = 14 - exp;
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) {
      h++;
    }
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) {
    h++;
  }
  return (uint16_t)(sign | h);
}

static float from_half(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float f;
  if (exp == 0) {
    f = ldexpf((float)mant, -24);
  } else if (exp == 31) {
    f = mant != 0 ? NAN : INFINITY;
  } else {
    f = ldexpf((float)(mant | 0x400), exp - 25);
  }
  return (h & 0x8000) != 0 ? -f : f;
}

static void report(const char *kernel, const char *shape, int ok, double diff, double load_ms) {
  printf("RESULT c %s %s %s %s %.3g %.1f\n", form, kernel, shape, ok ? "ok" : "FAIL", diff, load_ms);
  if (!ok) {
    failures++;
  }
}

static void check_add(CUstream stream, int32_t n, double load_ms) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  for (int32_t i = 0; i < n; i++) {
    x[i] = (float)next_random() / (1 << 24);
    y[i] = (float)next_random() / (1 << 24) - 0.5f;
  }
  CUdeviceptr dx, dy, dout;
  CHECK(cuMemAlloc(&dx, bytes));
  CHECK(cuMemAlloc(&dy, bytes));
  CHECK(cuMemAlloc(&dout, bytes));
  CHECK(cuMemcpyHtoD(dx, x, bytes));
  CHECK(cuMemcpyHtoD(dy, y, bytes));
  CHECK(cuMemsetD8(dout, 0xff, bytes)); /* NaN: an element never written shows */
  CHECK(add_kernel(stream, dx, dy, dout, n));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(out, dout, bytes));
  double diff = 0;
  int ok = 1;
  for (int32_t i = 0; i < n; i++) {
    float want = x[i] + y[i];
    if (out[i] != want) { /* NaN != anything */
      ok = 0;
      diff = isnan(out[i]) ? INFINITY : fmax(diff, fabs((double)out[i] - want));
    }
  }
  char shape[32];
  snprintf(shape, sizeof shape, "n=%d", (int)n);
  report("add", shape, ok, diff, load_ms);
  cuMemFree(dx);
  cuMemFree(dy);
  cuMemFree(dout);
  free(x);
  free(y);
  free(out);
}

static void check_matmul(CUstream stream, int32_t m, int32_t n, int32_t k, double load_ms) {
  uint16_t *a = malloc((size_t)m * k * 2), *b = malloc((size_t)k * n * 2), *c = malloc((size_t)m * n * 2);
  float *af = malloc((size_t)m * k * 4), *bf = malloc((size_t)k * n * 4);
  for (size_t i = 0; i < (size_t)m * k; i++) {
    af[i] = (float)((int)(next_random() % 129) - 64) / 64;
    a[i] = to_half(af[i]);
  }
  for (size_t i = 0; i < (size_t)k * n; i++) {
    bf[i] = (float)((int)(next_random() % 129) - 64) / 64;
    b[i] = to_half(bf[i]);
  }
  CUdeviceptr da, db, dc;
  CHECK(cuMemAlloc(&da, (size_t)m * k * 2));
  CHECK(cuMemAlloc(&db, (size_t)k * n * 2));
  CHECK(cuMemAlloc(&dc, (size_t)m * n * 2));
  CHECK(cuMemcpyHtoD(da, a, (size_t)m * k * 2));
  CHECK(cuMemcpyHtoD(db, b, (size_t)k * n * 2));
  CHECK(cuMemsetD8(dc, 0xff, (size_t)m * n * 2));
  /* Row-major a [m, k], b [k, n], c [m, n]: the unit strides are folded
     into the library (i32:1 in its signature), the others passed. */
  CHECK(matmul_kernel(stream, da, db, dc, m, n, k, k, n, n));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(c, dc, (size_t)m * n * 2));
  double diff = 0;
  int ok = 1;
  float *row = malloc((size_t)n * 4);
  for (int32_t i = 0; i < m; i++) {
    for (int32_t j = 0; j < n; j++) {
      row[j] = 0;
    }
    for (int32_t p = 0; p < k; p++) {
      float av = af[(size_t)i * k + p];
      for (int32_t j = 0; j < n; j++) {
        row[j] += av * bf[(size_t)p * n + j];
      }
    }
    for (int32_t j = 0; j < n; j++) {
      float acc = row[j] >= 0 ? row[j] : 0.01f * row[j];
      float want = from_half(to_half(acc)), got = from_half(c[(size_t)i * n + j]);
      double d = isnan(got) ? INFINITY : fabs((double)got - want);
      diff = fmax(diff, d);
      if (!(d <= 1e-2 + 1e-2 * fabs((double)want))) {
        ok = 0;
      }
    }
  }
  char shape[48];
  snprintf(shape, sizeof shape, "%dx%dx%d", (int)m, (int)n, (int)k);
  report("matmul", shape, ok, diff, load_ms);
  cuMemFree(da);
  cuMemFree(db);
  cuMemFree(dc);
  free(a);
  free(b);
  free(c);
  free(af);
  free(bf);
  free(row);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    form = argv[1];
  }
  CUdevice dev;
  CUcontext ctx;
  CUstream stream;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  double t = now_ms();
  CUresult err = load_add_kernel();
  double add_load = now_ms() - t;
  if (err != CUDA_SUCCESS) {
    fprintf(stderr, "load_add_kernel: %s\n", add_kernel_error());
    report("add", "load", 0, INFINITY, add_load);
  } else {
    check_add(stream, 98432, add_load);
    check_add(stream, 1000003, add_load);
    /* An empty problem launches nothing and succeeds. */
    CHECK(add_kernel(stream, 0, 0, 0, 0));
  }

  t = now_ms();
  err = load_matmul_kernel();
  double mm_load = now_ms() - t;
  if (err != CUDA_SUCCESS) {
    fprintf(stderr, "load_matmul_kernel: %s\n", matmul_kernel_error());
    report("matmul", "load", 0, INFINITY, mm_load);
  } else {
    check_matmul(stream, 273, 201, 150, mm_load);
    check_matmul(stream, 1024, 768, 512, mm_load);
  }
  CHECK(unload_add_kernel());
  CHECK(unload_matmul_kernel());
  CHECK(cuStreamDestroy(stream));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  return failures > 0;
}
