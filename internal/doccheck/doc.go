// Package doccheck holds tests of the repository's prose that code cannot
// keep true by itself: README's Tests section stays a short list of
// commands, and the scripts and files that README and docs/TESTING.md name
// exist. It has no code of its own.
package doccheck
