package main

import (
	"github.com/spf13/cobra"

	"github.com/tri-lang/tri/launch"
)

// aotHelp is the part of build's help on --aot.
const aotHelp = `With --aot DIR, build writes a C library of the specialization instead,
as Triton's ahead-of-time compiler (python -m triton.tools.compile) does:

  tri build add.tri -k add_kernel --signature '*fp32:16, *fp32:16, *fp32:16, i32, 1024' \
      --grid 'cdiv(n_elements, 1024), 1, 1' --aot out/

writes out/add_kernel.h and out/add_kernel.c. The header declares
CUresult add_kernel(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr,
CUdeviceptr output_ptr, int32_t n_elements), load_add_kernel(void),
unload_add_kernel(void) and add_kernel_error(void); the C file needs cuda.h
and -lcuda. --grid is one to three integer expressions over the kernel's
integer parameters and constexprs (+ - * / %, cdiv, min, max), computed in
C at each launch. The C file embeds a cubin for --arch compiled now (needs
NVRTC here), or with --embed source the CUDA C, which the library compiles
with NVRTC when it loads, for the GPU it finds; --embed auto (the default)
takes a cubin where NVRTC is found. --out-name names the launcher and the
files (default: the kernel's name).
`

// aotFlags registers build's --aot, --grid, --out-name and --embed.
func aotFlags(c *cobra.Command, o *launch.Options) {
	f := c.Flags()
	f.StringVar(&o.AOT, "aot", "", "write a C library (NAME.h, NAME.c) of the -k/--signature specialization into this folder")
	f.StringVar(&o.Grid, "grid", "", "with --aot: the launch grid in C over the integer parameters, e.g. 'cdiv(n, 1024), 1, 1'")
	f.StringVar(&o.OutName, "out-name", "", "with --aot: the launcher's C name and the files' base name (default: the kernel's)")
	f.StringVar(&o.Embed, "embed", "", "with --aot: what the library embeds: auto (a cubin where NVRTC is found), cubin, or source (compiled by NVRTC when it loads)")
}
