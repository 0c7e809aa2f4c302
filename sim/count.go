package sim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseCount reads a positive count of what (trials, forces) as people
// write one: 1000000, 1_000_000, 1e6, 1M, 1k or 1G; at most MaxTrials.
func ParseCount(s, what string) (uint64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k") || strings.HasSuffix(t, "K"):
		mult, t = 1e3, t[:len(t)-1]
	case strings.HasSuffix(t, "M"):
		mult, t = 1e6, t[:len(t)-1]
	case strings.HasSuffix(t, "G"):
		mult, t = 1e9, t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a number of %s", s, what)
	}
	v *= mult
	if v < 1 || v != math.Trunc(v) {
		return 0, fmt.Errorf("%q: want a whole number of %s, at least 1", s, what)
	}
	if v > float64(MaxTrials) {
		return 0, fmt.Errorf("%q: at most %d %s", s, MaxTrials, what)
	}
	return uint64(v), nil
}

// ParseRolls reads rolls to replay as people write them, separated by
// commas: 5,1. Each is a face of some die the rules roll (1 to 10).
func ParseRolls(spec string) ([]int, error) {
	var rolls []int
	for _, f := range strings.Split(spec, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 || v > 10 {
			return nil, errors.New("want rolls 1 to 10 separated by commas, e.g. 5,1")
		}
		rolls = append(rolls, v)
	}
	return rolls, nil
}
