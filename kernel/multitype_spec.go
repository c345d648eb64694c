package kernel

import (
	"fmt"
	"strconv"
	"strings"
)

// parseMultiType reads the fields after "multitype:" (see doc.go):
//
//	multitype:step:CUT:GAMMA        φ(λ) = [λ ≥ CUT]
//	multitype:linstep:CUT:GAMMA     φ(λ) = λ·[λ ≥ CUT]
//	multitype:poly:T:GAMMA          φ(λ) = λ^T
//	multitype:randomwalk:T:GAMMA    the random-walk form of paper 002 eq. (3)
//
// GAMMA = 1/(2σ²) of the Gaussian affinity.
func parseMultiType(s string, args []string) (MultiType, error) {
	if len(args) != 3 {
		return MultiType{}, fmt.Errorf("%w %q: want multitype:TRANSFER:PARAM:GAMMA, e.g. multitype:linstep:0.1:0.05", ErrUnknownKernel, s)
	}
	vals := make([]float64, 2)
	for i, a := range args[1:] {
		v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err != nil {
			return MultiType{}, fmt.Errorf("%w %q: %q is not a number", ErrUnknownKernel, s, a)
		}
		vals[i] = v
	}
	m := MultiType{Transfer: strings.ToLower(strings.TrimSpace(args[0])), Gamma: vals[1]}
	switch m.Transfer {
	case TransferStep, TransferLinStep:
		m.Cut = vals[0]
	case TransferPoly, TransferRandomWalk:
		m.T = vals[0]
	default:
		return MultiType{}, fmt.Errorf("%w %q: transfer %q (want step, linstep, poly or randomwalk)", ErrUnknownKernel, s, args[0])
	}
	if err := m.Validate(); err != nil {
		return MultiType{}, fmt.Errorf("%q: %w", s, err)
	}
	return m, nil
}

// specString is the canonical ParseSpec form of m.
func (m *MultiType) specString() string {
	p := m.Cut
	if m.Transfer == TransferPoly || m.Transfer == TransferRandomWalk {
		p = m.T
	}
	return "multitype:" + m.Transfer + ":" + ftoa(p) + ":" + ftoa(m.Gamma)
}
