package crt

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Effect is what happens to the defenders who survive a result.
type Effect uint8

// Defender effects (docs/rules.md §2): R retreat, S shatter (to the production
// spiral; those that cannot retreat are destroyed), B shatter plus
// breakthrough.
const (
	NoEffect Effect = iota
	Retreat
	Shatter
	Breakthrough
)

var effectLetters = [...]string{"", "R", "S", "B"}

// Letter is the effect's letter in a result code ("" for none).
func (e Effect) Letter() string { return effectLetters[e] }

// Result is one cell of a land CRT, written A/D: the attacker part is "-"
// (no loss, attackers turn face-down), "*" (no loss, attackers stay face-up)
// or N units destroyed; the defender part is "-" or N units destroyed,
// optionally followed by R, S or B. The zero value is "-/-".
type Result struct {
	AttackerLoss int8   // attacking units destroyed
	FaceUp       bool   // "*": the attackers stay face-up
	DefenderLoss int8   // defending units destroyed
	Effect       Effect // what the surviving defenders do
}

// ParseResult parses a result code such as "4/-", "*/2S" or "-/1R".
func ParseResult(s string) (Result, error) {
	a, d, ok := strings.Cut(s, "/")
	if !ok {
		return Result{}, fmt.Errorf("result %q: want attacker/defender, e.g. \"1/2S\"", s)
	}
	var r Result
	switch a {
	case "-":
	case "*":
		r.FaceUp = true
	default:
		n, err := parseLoss(a)
		if err != nil {
			return Result{}, fmt.Errorf("result %q: attacker part %q: %v (want -, * or N)", s, a, err)
		}
		r.AttackerLoss = n
	}
	if d == "-" {
		return r, nil
	}
	num := d
	if k := len(d) - 1; k >= 0 {
		switch d[k] {
		case 'R':
			r.Effect, num = Retreat, d[:k]
		case 'S':
			r.Effect, num = Shatter, d[:k]
		case 'B':
			r.Effect, num = Breakthrough, d[:k]
		}
	}
	n, err := parseLoss(num)
	if err != nil {
		return Result{}, fmt.Errorf("result %q: defender part %q: %v (want -, N, NR, NS or NB)", s, d, err)
	}
	r.DefenderLoss = n
	return r, nil
}

func parseLoss(s string) (int8, error) {
	if s == "" {
		return 0, fmt.Errorf("missing number")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not a number of units")
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 20 {
		return 0, fmt.Errorf("a number of units must be 1 to 20, or - for none")
	}
	return int8(n), nil
}

// String writes the result back as its code; ParseResult(r.String()) == r.
func (r Result) String() string {
	if uint8(r.AttackerLoss) < codeLosses && uint8(r.DefenderLoss) < codeLosses && r.Effect <= Breakthrough {
		faceUp := 0
		if r.FaceUp {
			faceUp = 1
		}
		return resultCodes()[r.AttackerLoss][faceUp][r.DefenderLoss][r.Effect]
	}
	return r.code()
}

// codeLosses bounds the losses of the results whose codes are kept
// written: every printed CRT's.
const codeLosses = 8

// resultCodes are the codes of the results with fewer than codeLosses
// units lost a side, written once, so summaries that name thousands of
// results build no strings.
var resultCodes = sync.OnceValue(func() *[codeLosses][2][codeLosses][Breakthrough + 1]string {
	var codes [codeLosses][2][codeLosses][Breakthrough + 1]string
	for a := range codes {
		for f := range codes[a] {
			for d := range codes[a][f] {
				for e := range codes[a][f][d] {
					codes[a][f][d][e] = Result{AttackerLoss: int8(a), FaceUp: f == 1, DefenderLoss: int8(d), Effect: Effect(e)}.code()
				}
			}
		}
	}
	return &codes
})

// code writes the result's code.
func (r Result) code() string {
	var b strings.Builder
	switch {
	case r.AttackerLoss > 0:
		b.WriteString(strconv.Itoa(int(r.AttackerLoss)))
	case r.FaceUp:
		b.WriteByte('*')
	default:
		b.WriteByte('-')
	}
	b.WriteByte('/')
	if r.DefenderLoss > 0 {
		b.WriteString(strconv.Itoa(int(r.DefenderLoss)))
		b.WriteString(r.Effect.Letter())
	} else {
		b.WriteByte('-')
	}
	return b.String()
}

// MarshalText encodes the result as its code.
func (r Result) MarshalText() ([]byte, error) { return []byte(r.String()), nil }
