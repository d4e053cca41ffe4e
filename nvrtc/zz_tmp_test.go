package nvrtc

import "testing"

func TestTmpMsg(t *testing.T) { t.Log(Load()) }
