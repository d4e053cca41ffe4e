package launch

import (
	"io"
	"time"
)

// Options are the settings of the command line's compiling commands, also
// usable from Go. The zero value plus Stdout/Stderr is a sensible default.
type Options struct {
	NumWarps, NumStages int // override the launch line's; 0: keep
	Config              int // autotune config index; -1: tune
	Arch                string
	LineInfo            bool
	Seed                int64
	Timeout             time.Duration
	Dump                []string // ast, ir, layout, cuda, resources
	Lets                []string // NAME=EXPR, in order
	Saves               []string // NAME=F.npy
	SaveInputs          string   // directory for every bound tensor before the launch
	Interpret, Check    bool
	Kernel, Signature   string // tri build -k/--signature
	Output              string // tri build -o
	Stdout, Stderr      io.Writer
}

func (o *Options) stdout() io.Writer {
	if o.Stdout == nil {
		return io.Discard
	}
	return o.Stdout
}

func (o *Options) stderr() io.Writer {
	if o.Stderr == nil {
		return io.Discard
	}
	return o.Stderr
}

func (o *Options) dumps(what string) bool {
	for _, d := range o.Dump {
		if d == what {
			return true
		}
	}
	return false
}

var dumpKinds = []string{"ast", "ir", "layout", "cuda", "resources"}
