package scenario

// Words are a scenario key as a player reads it: a label (with the
// rulebook section, for an option) and one line on what it does, citing
// docs/rules.md. The key itself stays what a file holds; these are for
// the page's chips and anything else that shows a key to a player.
type Words struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	About string `json:"about"`
}

// OptionWord is an option's words and a word or two to name it where
// room is short (the page's table card and phone bar list the options in
// force).
type OptionWord struct {
	Words
	Short string `json:"short"`
}

// OptionWords says each option of AllOptions in a player's words, in its
// order.
var OptionWords = []OptionWord{
	{Words{FractionalOdds, "Fractional odds (AsA 3.15)", "Between two odds levels a d6 may move the combat up to the next, as often as the ratio is past the lower level, in sixths (docs/rules.md §1)."}, "fractional"},
	{Words{FractionalOddsD10, "Fractional odds with a d10 (AsA 3.15)", "As fractional odds, in tenths with a d10 (a 0 counts as 10); not with the d6 rule (docs/rules.md §1)."}, "fractional d10"},
	{Words{WildResults, "Wild combat results (AsA 3.14)", "Each side rolls: the attacker's roll reads the defender's part of the result, the defender's roll the attacker's (docs/rules.md §2.4)."}, "wild"},
	{Words{BlitzModifier, "Blitz modifier (AfA 3.11)", "On the Blitz table in clear weather, +1 when the attacking armour outnumbers the defending armour, AT and AA more than twice, −1 the other way (docs/rules.md §2.1)."}, "blitz mod"},
	{Words{TerritorialModifiers, "Territorial modifiers (AfA 3.11)", "+1 when every defender is a territorial and no attacker is, −1 when every attacker is and no defender is (docs/rules.md §2.1)."}, "territorial"},
	{Words{Kampfgruppe, "Kampfgruppe (AsA 3.1.1)", "A destroyed corps or army is replaced by a division of its kind when one is available (docs/rules.md §3)."}, "kampfgruppe"},
	{Words{Stacking, "Stacking limits (AsA 3.4)", "Any three land units a hex, at most two of them corps or armies; a stack over the limit is refused (docs/rules.md §3)."}, "stacking"},
	{Words{Artillery, "Artillery (AsA 3.2.3)", "An ART unit fights, makes a ground strike or adds its factors as support, as its role says (docs/rules.md §3)."}, "artillery"},
	{Words{NavalGroundStrike, "Naval ground strikes (AsA 3.13)", "Ships roll to turn face-up defenders face-down before the combat, each at or under half its shore bombardment (docs/rules.md §3)."}, "naval strikes"},
	{Words{AWAWUnitEffects, "A World at War unit effects (AWAW 10)", "AWAW's die-roll modifiers for exploiting and negated armour, airdrops, Chindits, marines and flak (docs/rules.md §6)."}, "AWAW"},
}

// HexFlagWords says each true-or-false key of a hex in a player's words,
// in the order docs/scenario-format.md lists them.
var HexFlagWords = []Words{
	{"city", "City", "Forces the Assault table; adds 1 to the notional unit of an invasion or paradrop (docs/rules.md §2.3, §4)."},
	{"fortress", "Fortress", "Forces the Assault table (docs/rules.md §2.3)."},
	{"reference_town", "Reference town", "Does not force the Assault table (AfA 1.5); not with a city (docs/rules.md §2.3)."},
	{"fortified", "Fortified hexside", "The attack crosses a fortified hexside, printed or a fortification unit: attackers halved, Assault forced; paradrops are exempt (docs/rules.md §2.3, §3)."},
	{"across_river", "Across a river", "Land combats only: the attackers are halved (docs/rules.md §3)."},
	{"home_nation", "Home-nation hex", "Invasions and paradrops: an unconquered home-nation hex, +1 to the notional unit; with the AWAW unit effects, also read for negated armour (docs/rules.md §4, §6)."},
	{"supply", "Defender in supply", "The defender is in supply; out of supply, the notional unit has 1 less (docs/rules.md §4)."},
	{"surprise", "Surprise impulse", "Invasions and paradrops: 1 less to the notional unit (docs/rules.md §4)."},
	{"adjacent_friendly_corps", "Friendly corps adjacent", "Invasions and paradrops: +1 to the notional unit when no real unit defends (docs/rules.md §4)."},
	{"protected", "Protected hex", "A capital, objective hex, IC, bridgehead or railhead: with the AWAW unit effects, no die-roll modifier for exploiting or negated armour here (docs/rules.md §6)."},
	{"coastal", "Coastal", "Next to a sea area, so a plan's ships may bombard it (AsA 3.13; docs/rules.md §3, §8)."},
}

// KeyWords says the other keys the page's forms show (a side's, a unit's,
// an AA unit's, a bomber's, an aircraft's) in a player's words, from
// docs/scenario-format.md's tables: "ctl" is the combat training level.
var KeyWords = []Words{
	{"hq_support", "HQ support", "This side's HQ support succeeded."},
	{"ground_support", "ground support", "Tactical factors of aircraft, as a plain number."},
	{"shore_bombardment", "shore bombardment", "Attacker only: ships' shore bombardment factors."},
	{"attack_as_mud", "attack as in mud", "Attacker only: the winter election of AfA 3.11."},
	{"exploiting", "exploiting armour", "Attacker only, with the AWAW unit effects: an attack by exploiting armour."},
	{"can_retreat", "can retreat", "Defender only: when off, R, S and B results destroy the survivors."},
	{"ctl", "combat training level (CTL)", "Defender only, with the AWAW unit effects."},
	{"face_down", "face-down", "The unit is face-down."},
	{"supply", "in supply", "When off, the unit is out of supply."},
	{"name", "name", "Shown in reports."},
	{"section", "sea-box section", "Invading units only: the section of the sea box, 1, 2 or 3."},
	{"ls", "carried by an LS", "An invading German or Japanese INF, MAR, PARA or MTN division carried by an LS (3-section only)."},
	{"role", "artillery role", "ART only, with the artillery option: fight, make a ground strike (attacker only) or add its factors as support."},
	{"towed", "towed", "AT, AA and ART only."},
	{"katyusha", "Katyusha", "A self-propelled ART unit (not towed)."},
	{"red_circle", "red circle", "AT and AA only: dark or light (AsA 3.2.1)."},
	{"heavy", "heavy AA", "AA only."},
	{"division_available", "a division can replace it", "With Kampfgruppe: a corps or army that a division can replace."},
	{"division_factors", "the division's factors", "With a division available: the factors lost are the corps' less these (0: the whole corps)."},
	{"ski", "ski", "Counts toward the winter election."},
	{"white_print", "white print", "Counts toward the winter election."},
	{"territorial", "territorial", "Counts for the territorial modifiers."},
	{"bp", "build points", "Break ties in the loss order."},
	{"mech_negated", "mechanised component negated", "ARM and MECH, with the AWAW unit effects."},
	{"isolated", "isolated Chindit", "CHINDIT, with the AWAW unit effects."},
	{"a2a", "air-to-air", "The aircraft's air-to-air factor."},
	{"sb", "strategic bombardment", "The bomber's strategic bombardment factor."},
	{"tactical", "tactical", "The aircraft's tactical factor."},
	{"carrier", "carrier", "The bomber is a carrier: AA fire damages it instead of destroying it."},
}
