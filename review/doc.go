// Package review builds tri review's page: one self-contained HTML file
// (no network, no external scripts or fonts) that shows a reviewer what
// tri made of one specialization of a kernel.
//
// The page holds the kernel's Python and the generated CUDA side by side,
// linked both ways through cudagen's line map (Result.Lines: the source
// position of each CUDA line), so that selecting a source line highlights
// the CUDA lines it became and selecting a CUDA line shows its source
// line; the specialization (launch, constexprs, dtypes, target); each
// layout as an SVG picture of which thread and register hold which
// element, with the tiles that use it; each loop that holds a dot with its
// software pipeline in words and as a diagram of the buffers over the
// iterations (or why it is not pipelined), from cudagen.Describe; where
// NVRTC is found, ptxas's report (registers, spills, shared memory and the
// occupancy they allow); and, when asked, the result of tri run --check.
//
// Build gathers these facts as values; Page.Write renders them with
// html/template, the code highlighted by chroma. Everything a page draws
// is computed here in Go: its small script only toggles classes.
package review
