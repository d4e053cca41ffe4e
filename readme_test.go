package tri

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/version"
)

// README's go install and go get name the release that version.Version
// is, so that raising the version without the README (or the reverse)
// fails here.
func TestReadmeVersion(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	tags := regexp.MustCompile(`github\.com/tri-lang/tri(?:/cmd/tri)?@(v[0-9.]+)`).FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, tags, "README names no release to install")
	for _, m := range tags {
		assert.Equal(t, "v"+version.Version, m[1], "%s", m[0])
	}
}
