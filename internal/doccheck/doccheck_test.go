package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	require.NoError(t, err)
	return string(b)
}

// section returns the text of README's "## title" section.
func section(t *testing.T, doc, title string) string {
	t.Helper()
	i := strings.Index(doc, "\n## "+title+"\n")
	require.GreaterOrEqual(t, i, 0, "no section %q", title)
	rest := doc[i+len(title)+5:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestReadmeTestsAreCommands: README's Tests section is a block of
// commands, each naming a script that exists, and a few lines of prose
// pointing at docs/TESTING.md, where the details live.
func TestReadmeTestsAreCommands(t *testing.T) {
	tests := section(t, read(t, "README.md"), "Tests")
	var commands, prose []string
	inBlock := false
	for _, line := range strings.Split(tests, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock = !inBlock
		case strings.TrimSpace(line) == "":
		case inBlock:
			commands = append(commands, line)
		default:
			prose = append(prose, line)
		}
	}
	assert.GreaterOrEqual(t, len(commands), 2, "a list of commands")
	assert.LessOrEqual(t, len(prose), 5, "the details belong in docs/TESTING.md, not README:\n%s", strings.Join(prose, "\n"))
	assert.Contains(t, strings.Join(prose, " "), "docs/TESTING.md")
	for _, c := range commands {
		cmd, _, _ := strings.Cut(c, "#")
		assert.NotEmpty(t, strings.TrimSpace(cmd), "a command, not a comment: %q", c)
		for _, word := range strings.Fields(cmd) {
			if strings.Contains(word, "/") && !strings.Contains(word, "*") && !strings.HasPrefix(word, "./") && !strings.HasPrefix(word, "bin/") {
				assert.FileExists(t, filepath.Join(root, word), "README's Tests names %s", word)
			}
		}
	}
}

// scriptPath finds the repository paths that prose names in backticks.
var scriptPath = regexp.MustCompile("`((?:bench|\\.ci|cmd|docs)/[A-Za-z0-9_./-]+)")

// TestTestingDocNamesRealFiles: every script and file docs/TESTING.md
// names exists, so the page cannot drift from the tree.
func TestTestingDocNamesRealFiles(t *testing.T) {
	doc := read(t, "docs/TESTING.md")
	found := scriptPath.FindAllStringSubmatch(doc, -1)
	require.NotEmpty(t, found)
	for _, m := range found {
		p := strings.TrimSuffix(m[1], ".")
		if strings.ContainsAny(p, "*") {
			continue
		}
		_, err := os.Stat(filepath.Join(root, p))
		assert.NoError(t, err, "docs/TESTING.md names %s", p)
	}
}
