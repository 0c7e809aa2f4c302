package answer

import (
	"context"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
)

// CompareFlags are `wifodds compare`'s flags.
type CompareFlags struct {
	analysis.Request          // the engine, budget and sampling
	Variants         []string // NAME=OVERRIDES, the first the baseline
	Independent      bool     // Monte Carlo with independent streams instead of common random numbers
}

// Compare answers `wifodds compare`. A bad variant comes back as
// *analysis.VariantError, wrapped in an InputError.
func Compare(ctx context.Context, in Input, f CompareFlags) (*analysis.Comparison, error) {
	s, err := in.land()
	if err != nil {
		return nil, err
	}
	if len(f.Variants) == 0 {
		return nil, inputf("give at least one variant NAME=OVERRIDES, e.g. alt=crt=2d6")
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	vs, err := analysis.CompileVariants(s, f.Variants, func(ref string) (*crt.Table, error) { return in.Tables.CRT(s, ref) }, air)
	if err != nil {
		return nil, asInput[*analysis.VariantError](err)
	}
	return analysis.Compare(ctx, s.Name, vs, f.Request, f.Independent)
}
