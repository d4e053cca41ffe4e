/* Drives the generated library of the test kernel
   add_kernel(x_ptr, y_ptr, output_ptr, n_elements) against the stand-in
   driver, printing what each call did, one line each. */
#include <stdio.h>
#include <string.h>

#include "add_kernel.h"
#include "stub.h"

static void launch(int32_t n) {
  stub.launches = 0;
  memset(stub.args, 0, sizeof stub.args);
  CUresult err = add_kernel((CUstream)0, 0x1000, 0x2000, 0x3000, n);
  unsigned long long x, y, out;
  int32_t got_n;
  memcpy(&x, stub.args[0], sizeof x);
  memcpy(&y, stub.args[1], sizeof y);
  memcpy(&out, stub.args[2], sizeof out);
  memcpy(&got_n, stub.args[3], sizeof got_n);
  printf("n=%d: err=%d launches=%d", (int)n, (int)err, stub.launches);
  if (stub.launches > 0) {
    printf(" grid=%u,%u,%u block=%u,%u,%u shared=%u args=%#llx,%#llx,%#llx,%d", stub.grid[0], stub.grid[1],
           stub.grid[2], stub.block[0], stub.block[1], stub.block[2], stub.shared, x, y, out, (int)got_n);
  }
  printf("\n");
}

int main(void) {
  stub.nargs = 4;
  stub.arg_sizes[0] = stub.arg_sizes[1] = stub.arg_sizes[2] = sizeof(CUdeviceptr);
  stub.arg_sizes[3] = sizeof(int32_t);
  CUresult err = load_add_kernel();
  printf("load: err=%d error=\"%s\"\n", (int)err, add_kernel_error());
  if (err != CUDA_SUCCESS) {
    return 0;
  }
  printf("image: %s\n", stub.image);
  printf("function: %s shared_limit=%d\n", stub.function, stub.shared_limit);
  launch(98432);
  launch(1);
  launch(0);
  launch(-3000);
  printf("loads=%d\n", stub.loads);
  err = unload_add_kernel();
  printf("unload: err=%d unloads=%d\n", (int)err, stub.unloads);
  launch(5);
  printf("loads=%d\n", stub.loads);
  return 0;
}
