package scenario

import "github.com/wifodds/wifodds/crt"

// Terrains lists the terrain types and the multiplier each applies to the
// defence (docs/rules.md §3: terrain multiplies the defence; mountain doubles, AsA
// 3.11 example). Forest and jungle work through die-roll modifiers instead
// (docs/rules.md §2.1). Desert mountains fight as mountains (AfA 1.3). Values not
// in the seeds are ours; give defence_multiplier to override.
var Terrains = map[string]float64{
	"clear":           1,
	"desert":          1,
	"forest":          1,
	"jungle":          1,
	"swamp":           1,
	"tundra":          1,
	"mountain":        2,
	"desert-mountain": 2,
}

// Weathers lists the weather conditions of docs/rules.md §2.1, the same
// names every table's weather modifiers give.
var Weathers = crt.Weathers

// Multiplier is the defence multiplier of the hex: defence_multiplier when
// given, else the terrain's.
func (h *Hex) Multiplier() float64 {
	if h.DefenceMultiplier > 0 {
		return h.DefenceMultiplier
	}
	return Terrains[h.Terrain]
}
