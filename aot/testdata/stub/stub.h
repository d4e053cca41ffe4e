/* What the stand-in driver records. */
#ifndef STUB_H
#define STUB_H

#include <stddef.h>

struct stub_record {
  char image[256];
  char function[64];
  int loads, unloads, launches, shared_limit;
  unsigned int grid[3], block[3], shared;
  /* Set by main: how many kernel arguments to copy, and their sizes. */
  int nargs;
  size_t arg_sizes[8];
  unsigned char args[8][8];
};

extern struct stub_record stub;

#endif
