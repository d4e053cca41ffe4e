// Package benchplot draws the results of `tri bench` as a PNG with
// gonum/plot. It is kept out of package launch so that a Go program that
// only compiles and launches kernels does not link the plotting library:
// the command line hands Write to launch as BenchOptions.DrawPlot.
package benchplot
