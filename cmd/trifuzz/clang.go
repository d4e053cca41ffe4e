package main

// This file compiles generated CUDA with clang's CUDA mode, many kernels
// per call: clang takes far longer to start than to compile one kernel.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/tri-lang/tri/kernelgen"
)

type unit struct {
	kernel *kernelgen.Kernel
	src    string
}

// clangPool batches kernels and compiles each full batch on one of c.jobs
// workers.
type clangPool struct {
	c       *config
	t       *tally
	pending []unit
	work    chan []unit
	wg      sync.WaitGroup
}

func newClangPool(c *config, t *tally) *clangPool {
	p := &clangPool{c: c, t: t, work: make(chan []unit)}
	if !c.clang {
		return p
	}
	for range c.jobs {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for b := range p.work {
				p.compile(b)
			}
		}()
	}
	return p
}

func (p *clangPool) add(k *kernelgen.Kernel, src string) {
	p.pending = append(p.pending, unit{k, src})
	if len(p.pending) >= p.c.batch {
		p.work <- p.pending
		p.pending = nil
	}
}

// wait compiles what is pending and waits for every batch.
func (p *clangPool) wait() {
	if !p.c.clang {
		return
	}
	if len(p.pending) > 0 {
		p.work <- p.pending
	}
	close(p.work)
	p.wg.Wait()
}

// compile compiles a batch as one translation unit, each kernel's CUDA in
// its own namespace; a batch that fails is compiled again kernel by kernel
// to find the ones at fault.
func (p *clangPool) compile(b []unit) {
	var src strings.Builder
	for _, u := range b {
		fmt.Fprintf(&src, "namespace ns_%s {\n%s\n}\n", u.kernel.Name, u.src)
	}
	if _, err := p.clang(src.String()); err == nil {
		for range b {
			p.t.ok("clang")
		}
		return
	}
	for _, u := range b {
		if out, err := p.clang(u.src); err != nil {
			p.t.fail(u.kernel, "clang", out+err.Error())
		} else {
			p.t.ok("clang")
		}
	}
}

// clang compiles one CUDA source to PTX for the target's clang
// architecture (clangArch) and returns clang's output.
func (p *clangPool) clang(src string) (string, error) {
	dir, err := os.MkdirTemp("", "trifuzz-clang")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command(p.c.clangPath, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch="+clangArch(p.c.arch),
		"-nocudainc", "-nocudalib", "-w", "-S", "-o", filepath.Join(dir, "k.ptx"), in)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// clangArch is the architecture clang compiles the CUDA of target arch
// for: arch itself up to sm_86, else sm_86. clang checks no inline PTX,
// where the code of later targets differs (wgmma, TMA), and the clang of
// many machines knows no later target.
func clangArch(arch string) string {
	n, err := strconv.Atoi(strings.TrimRight(strings.TrimPrefix(arch, "sm_"), "af"))
	if err != nil || n > 86 {
		return "sm_86"
	}
	return arch
}
