package review

// This file implements the resource report: ptxas's figures from NVRTC's
// log, and the occupancy they allow.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
)

// Resources is ptxas's report on the kernel and the occupancy it allows.
type Resources struct {
	nvrtc.Resources
	DynamicShared int // the dynamic shared memory a launch passes
	// Blocks is how many programs fit on one multiprocessor at once, and
	// Limit what bounds it ("registers", "shared memory", "threads" or
	// "blocks"); Occupancy is their warps over the most a multiprocessor
	// runs, in percent.
	Blocks    int
	Limit     string
	Occupancy int
	// LineInfo says whether the SASS counts per source line are shown,
	// or why not.
	LineInfo string
}

// report compiles the CUDA with NVRTC for ptxas's report and line info.
// Without NVRTC it returns why, for the page to say so.
func report(k *ir.Kernel, res *cudagen.Result, arch string) (*Resources, map[int]int, string) {
	prog, err := gpu.CompileReport(k, res, arch, true)
	if err != nil {
		var ce *nvrtc.CompileError
		if errors.As(err, &ce) {
			return nil, nil, "NVRTC rejected the CUDA: " + firstLines(err.Error(), 20)
		}
		return nil, nil, "no NVRTC here (" + firstLines(err.Error(), 3) + "): tri review shows ptxas's report where NVRTC is found"
	}
	r := &Resources{DynamicShared: res.SharedBytes}
	for _, f := range nvrtc.FunctionResources(prog.Log) {
		if f.Function == res.Kernel {
			r.Resources = f
		}
	}
	if r.Function == "" {
		return nil, nil, "NVRTC's log holds no ptxas report for " + res.Kernel
	}
	r.Blocks, r.Limit, r.Occupancy = occupancy(arch, res.Threads, r.Regs, r.SmemBytes+r.DynamicShared)
	sass, err := sassPerLine(prog.Cubin, k.File, res)
	switch {
	case err != nil:
		r.LineInfo = "no SASS counts per line: " + err.Error()
	case len(sass) == 0:
		r.LineInfo = "no SASS counts per line: the cubin's line table names no line of " + k.File
	default:
		r.LineInfo = "SASS instructions per source line from the cubin's line table (-lineinfo), shown in the source pane's gutter"
	}
	return r, sass, ""
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// smLimits are a multiprocessor's limits on a target: threads, resident
// blocks, shared memory (bytes) and 32-bit registers. From CUDA's table of
// compute capabilities.
type smLimits struct{ threads, blocks, smem, regs int }

func limitsOf(arch string) smLimits {
	n, _ := strconv.Atoi(strings.TrimRight(strings.TrimPrefix(arch, "sm_"), "af"))
	switch {
	case n == 86:
		return smLimits{1536, 16, 100 * 1024, 65536}
	case n == 89:
		return smLimits{1536, 24, 100 * 1024, 65536}
	case n == 87:
		return smLimits{2048, 32, 164 * 1024, 65536}
	case n >= 120:
		return smLimits{1536, 32, 100 * 1024, 65536}
	case n >= 90:
		return smLimits{2048, 32, 228 * 1024, 65536}
	}
	return smLimits{2048, 32, 164 * 1024, 65536}
}

// occupancy is how many programs of threads threads, regs registers per
// thread and smem bytes of shared memory fit on one multiprocessor of
// arch, what bounds that, and the share of the multiprocessor's warps they
// keep busy (percent). Registers go to warps in units of 256 and shared
// memory to blocks with 1 KiB reserved by the system, as CUDA's occupancy
// calculator counts them.
func occupancy(arch string, threads, regs, smem int) (blocks int, limit string, percent int) {
	lim := limitsOf(arch)
	if threads <= 0 {
		return 0, "threads", 0
	}
	warps := (threads + 31) / 32
	blocks, limit = lim.blocks, "blocks"
	if b := lim.threads / (warps * 32); b < blocks {
		blocks, limit = b, "threads"
	}
	if regs > 0 {
		perWarp := (regs*32 + 255) / 256 * 256
		if b := lim.regs / (perWarp * warps); b < blocks {
			blocks, limit = b, "registers"
		}
	}
	if smem > 0 {
		if b := lim.smem / (smem + 1024); b < blocks {
			blocks, limit = b, "shared memory"
		}
	}
	return blocks, limit, blocks * warps * 32 * 100 / lim.threads
}

// String says the figures in one line.
func (r *Resources) String() string {
	return fmt.Sprintf("%d registers, %d bytes spill stores, %d bytes spill loads, %d bytes stack, %d bytes static and %d bytes dynamic shared memory",
		r.Regs, r.SpillStores, r.SpillLoads, r.StackBytes, r.SmemBytes, r.DynamicShared)
}
