package nvrtc

// This file implements reading ptxas's resource report (--ptxas-options=-v)
// out of an NVRTC log.

import (
	"regexp"
	"strconv"
	"strings"
)

// Resources is what ptxas reports for one kernel.
type Resources struct {
	Function    string
	Regs        int // registers per thread
	SpillStores int // bytes of spill stores per thread
	SpillLoads  int // bytes of spill loads per thread
	StackBytes  int // stack frame per thread
	SmemBytes   int // static shared memory per block
}

var (
	reEntry = regexp.MustCompile(`Compiling entry function '([^']+)'`)
	reProps = regexp.MustCompile(`Function properties for (\S+)`)
	reFrame = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
	reUsed  = regexp.MustCompile(`Used (\d+) registers`)
	reSmem  = regexp.MustCompile(`(\d+) bytes smem`)
)

// FunctionResources returns the report of each kernel in the log, in the
// log's order.
func FunctionResources(log string) []Resources {
	var out []Resources
	cur := func(name string) *Resources {
		for i := range out {
			if out[i].Function == name {
				return &out[i]
			}
		}
		out = append(out, Resources{Function: name})
		return &out[len(out)-1]
	}
	var r *Resources
	for line := range strings.SplitSeq(log, "\n") {
		if m := reEntry.FindStringSubmatch(line); m != nil {
			r = cur(m[1])
			continue
		}
		if m := reProps.FindStringSubmatch(line); m != nil {
			r = cur(m[1])
			continue
		}
		if r == nil {
			continue
		}
		if m := reFrame.FindStringSubmatch(line); m != nil {
			r.StackBytes, r.SpillStores, r.SpillLoads = atoi(m[1]), atoi(m[2]), atoi(m[3])
		}
		if m := reUsed.FindStringSubmatch(line); m != nil {
			r.Regs = atoi(m[1])
			if s := reSmem.FindStringSubmatch(line); s != nil {
				r.SmemBytes = atoi(s[1])
			}
		}
	}
	return out
}

// ParseResources returns the largest figures of any kernel in the log: a
// module of one kernel reads as that kernel's report. All are zero when the
// log has no ptxas report.
func ParseResources(log string) (regs, spillStores, spillLoads, stackBytes, smemBytes int) {
	for _, r := range FunctionResources(log) {
		regs = max(regs, r.Regs)
		spillStores = max(spillStores, r.SpillStores)
		spillLoads = max(spillLoads, r.SpillLoads)
		stackBytes = max(stackBytes, r.StackBytes)
		smemBytes = max(smemBytes, r.SmemBytes)
	}
	return regs, spillStores, spillLoads, stackBytes, smemBytes
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
