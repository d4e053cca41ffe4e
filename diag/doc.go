// Package diag holds source positions and the diagnostics that every stage
// of tri reports: a position (and optional end), a severity, a stable code,
// a message, notes with their own positions and an optional suggestion.
//
// A Diagnostic prints as "file:line:col: message" through Error. The command
// line adds the offending source line and a caret with Render. A List
// collects diagnostics for a stage, sorts them by position and caps the
// number of errors, as go/types does, so that one mistake does not bury the
// others under knock-on reports.
package diag
