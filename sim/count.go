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

// ParseSeed reads a seed as the CLI's --seed and the API's seed= both
// take it: a decimal whole number from 0 to 2^64-1, digits optionally
// grouped by single underscores (1_000). A leading zero is just a zero
// (010 is 10), and no other base is read: 0x10 is an error, not 16.
func ParseSeed(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	ok := t != "" && t[0] != '_' && t[len(t)-1] != '_' && !strings.Contains(t, "__")
	for i := 0; ok && i < len(t); i++ {
		ok = t[i] == '_' || '0' <= t[i] && t[i] <= '9'
	}
	if !ok {
		return 0, fmt.Errorf("%q: a seed is a decimal whole number from 0 to %d (no sign, no 0x or other base)", s, uint64(math.MaxUint64))
	}
	v, err := strconv.ParseUint(strings.ReplaceAll(t, "_", ""), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: a seed is at most %d", s, uint64(math.MaxUint64))
	}
	return v, nil
}
