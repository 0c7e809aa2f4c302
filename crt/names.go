package crt

// Weathers are the weather conditions a target hex may have (docs/rules.md
// §2.1). A table's weather modifiers name every one of them.
var Weathers = []string{"clear", "mud", "winter", "monsoon", "severe-winter"}

// Terrains are the terrain types a target hex may have (docs/rules.md §2.1,
// §3). A table's terrain modifiers name every one of them.
var Terrains = []string{"clear", "desert", "desert-mountain", "forest", "jungle", "mountain", "swamp", "tundra"}

// MaxModifier bounds every die-roll modifier a table or scenario gives: a
// larger one would push any roll off either end of a table.
const MaxModifier = 30
