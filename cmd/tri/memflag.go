package main

import "github.com/tri-lang/tri/interp"

// memoryFlag is a size flag such as --max-memory 8GiB, held in bytes;
// 0, its default, stands for interp.DefaultMaxMemory().
type memoryFlag struct{ bytes *int64 }

func (f memoryFlag) String() string {
	if f.bytes == nil || *f.bytes == 0 {
		return "half the available memory"
	}
	return interp.FormatBytes(*f.bytes)
}

func (f memoryFlag) Set(s string) error {
	n, err := interp.ParseBytes(s)
	if err != nil {
		return err
	}
	*f.bytes = n
	return nil
}

func (memoryFlag) Type() string { return "size" }
