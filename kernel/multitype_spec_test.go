package kernel

import (
	"errors"
	"testing"
)

func TestParseMultiType(t *testing.T) {
	for _, s := range []string{"multitype:linstep:0.1:0.05", "multitype:step:0.2:1", "multitype:poly:2:0.5", "multitype:randomwalk:3:0.5"} {
		sp, err := ParseSpec(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if sp.Kind != KindMultiType || sp.String() != s {
			t.Errorf("%s: kind %s, String %q", s, sp.Kind, sp.String())
		}
	}
	for _, s := range []string{"multitype", "multitype:linstep:0.1", "multitype:cubic:1:1", "multitype:step:0:1", "multitype:step:0.1:-1", "multitype:poly:x:1"} {
		if _, err := ParseSpec(s); err == nil {
			t.Errorf("%s accepted", s)
		} else if !errors.Is(err, ErrUnknownKernel) && !errors.Is(err, ErrBadParam) {
			t.Errorf("%s: error %v wraps neither ErrUnknownKernel nor ErrBadParam", s, err)
		}
	}
}
