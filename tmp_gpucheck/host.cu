#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_fp16.h>
extern "C" __global__ void add_kernel(float*, float*, float*, int);
extern "C" __global__ void copy_k(int*, int*, int);
extern "C" __global__ void silu_mul_kernel(unsigned short*, unsigned short*, unsigned short*, int, float);
extern "C" __global__ void row_chunks_kernel(float*, float*, float*, int, int, float);
int main() {
  int n = 98437, m = 98440; size_t b = m * 4;
  float *h = (float*)malloc(b * 3), *d; cudaMalloc(&d, b * 3);
  for (int i = 0; i < n; i++) { h[i] = i * 0.5f; h[m + i] = 1.0f / (i + 1); }
  cudaMemcpy(d, h, b * 2, cudaMemcpyHostToDevice); cudaMemset(d + 2 * m, 0xff, b);
  add_kernel<<<(n + 1023) / 1024, 128>>>(d, d + m, d + 2 * m, n);
  cudaMemcpy(h + 2 * m, d + 2 * m, b, cudaMemcpyDeviceToHost);
  int bad = 0, tail = 0;
  for (int i = 0; i < n; i++) bad += h[2 * m + i] != h[i] + h[m + i];
  for (int i = n; i < m; i++) tail += h[2 * m + i] == h[2 * m + i];
  printf("add: bad=%d tail_written=%d %s\n", bad, tail, cudaGetErrorString(cudaDeviceSynchronize()));
  int *hi = (int*)h, *xi = (int*)d, *zi = (int*)d + m;
  for (int i = 0; i < 1000; i++) hi[i] = i * 7 - 3;
  cudaMemcpy(xi, hi, 4000, cudaMemcpyHostToDevice); cudaMemset(zi, 0, b);
  copy_k<<<(1000 + 15) / 16, 128>>>(xi, zi, 1000);
  cudaMemcpy(hi + m, zi, 4004, cudaMemcpyDeviceToHost); bad = 0;
  for (int i = 0; i < 1000; i++) bad += hi[m + i] != i * 7 - 3;
  printf("copy: bad=%d extra=%d %s\n", bad, hi[m + 1000], cudaGetErrorString(cudaDeviceSynchronize()));
  int hn = 1000003, hm = 1000008; __half *hh = (__half*)malloc(hm * 6); unsigned short *dh; cudaMalloc(&dh, hm * 6);
  for (int i = 0; i < hn; i++) { hh[i] = __float2half(sinf(i * 0.01f) * 3); hh[hm + i] = __float2half(cosf(i * 0.003f)); }
  cudaMemcpy(dh, hh, hm * 4, cudaMemcpyHostToDevice);
  silu_mul_kernel<<<(hn + 2047) / 2048, 128>>>(dh, dh + hm, dh + 2 * hm, hn, 0.5f);
  cudaMemcpy(hh + 2 * hm, dh + 2 * hm, hm * 2, cudaMemcpyDeviceToHost); bad = 0; double maxerr = 0;
  for (int i = 0; i < hn; i++) {
    float x = __half2float(hh[i]), y = __half2float(hh[hm + i]);
    float ref = x / (1 + expf(-x)) * y + 0.5f, got = __half2float(hh[2 * hm + i]);
    double err = fabs(got - ref); maxerr = fmax(maxerr, err); bad += err > 2e-3 + 2e-3 * fabs(ref);
  }
  printf("silu: bad=%d maxerr=%g %s\n", bad, maxerr, cudaGetErrorString(cudaDeviceSynchronize()));
  int M = 64, N = 2064; float *hx = (float*)malloc(M * N * 4 * 2 + 1024 * M * 4), *dx; cudaMalloc(&dx, M * N * 8 + 1024 * M * 4);
  for (int i = 0; i < M * N; i++) hx[i] = sinf(i * 0.37f);
  cudaMemcpy(dx, hx, M * N * 4, cudaMemcpyHostToDevice);
  row_chunks_kernel<<<M, 128>>>(dx, dx + M * N, dx + 2 * M * N, N, N, 2.0f);
  cudaMemcpy(hx + M * N, dx + M * N, M * N * 4 + 1024 * M * 4, cudaMemcpyDeviceToHost); bad = 0;
  for (int r = 0; r < M; r++) for (int j = 0; j < 1024; j++) {
    double s = 0; for (int c = j; c < N; c += 1024) { float x = hx[r * N + c]; s += x * x; bad += hx[M * N + r * N + c] != x * 2.0f; }
    bad += fabs(hx[2 * M * N + r * 1024 + j] - s) > 1e-4 * (1 + s);
  }
  printf("row_chunks: bad=%d %s\n", bad, cudaGetErrorString(cudaDeviceSynchronize()));
}
