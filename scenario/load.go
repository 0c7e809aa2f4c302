package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/internal/yamlx"
	"go.yaml.in/yaml/v3"
)

var (
	topKeys = []string{"name", "kind", "crt", "table", "options", "modifier", "hex", "attacker", "defender", "dice",
		"night", "intercepted", "target", "aa_units", "bombers", "air_tables", "plan", "targets", "sets"}
	shipKeys     = []string{"name", "factors"}
	aircraftKeys = []string{"name", "a2a", "tactical"}
	raidTopKeys  = []string{"name", "kind", "options", "dice", "night", "intercepted", "target", "aa_units", "bombers", "air_tables"}
	targetKeys   = []string{"factories", "oil", "synth_plants", "port_ships_aa", "flak"}
	hexKeys      = []string{"terrain", "weather", "defence_multiplier", "city", "fortress", "reference_town", "fortified",
		"across_river", "home_nation", "supply", "surprise", "adjacent_friendly_corps", "coastal"}
	sideKeys = []string{"hq_support", "ground_support", "shore_bombardment", "attack_as_mud", "can_retreat", "units", "naval_strikes", "aircraft", "exploiting", "ctl",
		"available", "support_available"}
	unitKeys = []string{"type", "size", "factors", "nation", "face_down", "supply", "section", "towed", "red_circle",
		"heavy", "division_available", "division_factors", "ski", "white_print", "territorial", "name", "bp", "ls", "role", "mech_negated", "isolated", "katyusha"}
)

// Load reads and validates a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := fileio.ReadFile(path, yamlx.MaxSize)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return Parse(path, data)
}

// Parse validates a scenario file's contents. file names the file in errors
// and is where a relative crt path is taken from.
func Parse(file string, data []byte) (*Scenario, error) { return ParseWith(file, data, ParseOptions{}) }

// ParseOptions tune Parse for where the scenario comes from.
type ParseOptions struct {
	// NoFiles refuses keys that name files (crt, air_tables, plan.crts
	// other than the built-in tables) without looking at the file system:
	// for scenarios that arrive over the network, which may not probe the
	// server's files. Their tables are sent as content instead.
	NoFiles bool
	// TablesGiven accepts keys that name table files as names only, without
	// looking for the files: the caller has the tables' content (a merged
	// shard carries it).
	TablesGiven bool
}

// MaxSideUnits is the most units a side lists: no combat loses more.
const MaxSideUnits = 64

// ParseWith is Parse with options.
func ParseWith(file string, data []byte, opts ParseOptions) (*Scenario, error) {
	// Nothing the scenario keeps points into the tree (errors and
	// positions copy lines and columns), so its nodes are shared.
	root, release, err := yamlx.ParseShared(file, data)
	defer release()
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	d := &yamlx.Decoder{File: file, Synonyms: keySynonyms}
	s := &Scenario{File: file, Source: data, CRT: "standard", Table: "auto", Options: map[string]bool{}, noFiles: opts.NoFiles, tablesGiven: opts.TablesGiven}
	m := d.Map(root, "")
	if m.Node() == nil || m.Node().Kind != yaml.MappingNode || d.Failed() {
		if !d.Failed() {
			d.Errorf(root, "", "a scenario is a mapping of keys to values")
		}
		return nil, fmt.Errorf("scenario: %w", d.Err())
	}
	m.Str("name", &s.Name)
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		if err := OneLine(s.Name); err != nil {
			d.Errorf(root, "name", "the file's name is the scenario's name, but %v; give a name: key", err)
		}
	}
	var kind string
	if !m.Has("kind") {
		d.Errorf(root, "kind", "missing: want land, invasion, paradrop or bombardment")
	}
	m.Enum("kind", "kind", []string{string(Land), string(Invasion), string(Paradrop), string(Bombardment)}, &kind)
	s.Kind = Kind(kind)
	switch s.Kind {
	case Land, Invasion, Paradrop:
	case Bombardment:
		parseRaid(d, m, s)
		if err := d.Err(); err != nil {
			return nil, fmt.Errorf("scenario: %w", err)
		}
		return s, nil
	default:
		return nil, fmt.Errorf("scenario: %w", d.Err())
	}
	s.CRTPos = d.Pos(m.Get("crt"))
	if m.Str("crt", &s.CRT) && s.CRT == "" {
		d.Errorf(m.Get("crt"), "crt", "empty: want standard, 2d6 or the path of a CRT data file")
	}
	if b, ok := crt.BuiltinName(s.CRT); ok {
		s.CRT = b
	} else if s.CRT != "" {
		checkFileRef(d, m, s, "crt", s.CRT, "a built-in table (standard, 2d6)")
	}
	m.Enum("table", "table", []string{"auto", "assault", "blitz"}, &s.Table)
	parseOptions(d, m, s)
	parseAirTables(d, m, s)
	if m.Int("modifier", &s.Modifier) && (s.Modifier < -crt.MaxModifier || s.Modifier > crt.MaxModifier) {
		d.Errorf(m.Get("modifier"), "modifier", "%d is outside -%d..%d", s.Modifier, crt.MaxModifier, crt.MaxModifier)
	}
	if isOperation(m) {
		parseOperation(d, m, s)
		m.Close(operationTopKeys...)
		if err := d.Err(); err != nil {
			return nil, fmt.Errorf("scenario: %w", err)
		}
		return s, nil
	}
	if m.Has("sets") && !m.Has("targets") {
		d.Errorf(m.Get("sets"), "sets", "sets name targets: of an operation (targets with their own attacker, for wifodds run) or of a plan's front (targets under a top-level attacker.available)")
	}
	front := m.Has("targets")
	if !front {
		parseHex(d, m.Get("hex"), s)
	}
	s.Attacker = parseSide(d, m.Get("attacker"), "attacker", "attacker", s)
	if !front {
		s.Defender = parseSide(d, m.Get("defender"), "defender", "defender", s)
	}
	if m.Get("attacker") == nil {
		d.Errorf(root, "attacker", "missing")
	}
	if !front && m.Get("defender") == nil && s.Kind == Land {
		d.Errorf(root, "defender", "missing")
	}
	parsePlan(d, m, root, s)
	parseDice(d, m, s)
	if s.IsPlan() && len(s.Dice) > 0 {
		d.Errorf(m.Get("dice"), "dice", "a plan weighs every roll; dice to replay belong in a scenario for wifodds run")
	}
	for _, k := range []string{"night", "intercepted", "target", "aa_units", "bombers"} {
		if m.Has(k) {
			m.Get(k)
			d.Errorf(m.Get(k), k, "only bombardment scenarios take %s", k)
		}
	}
	m.Close(topKeys...)
	if !d.Failed() {
		checkCombat(d, m, s)
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return s, nil
}

func parseDice(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	for i, n := range m.Seq("dice") {
		key := yamlx.Index("dice", i)
		if v, ok := d.Int(n, key); ok {
			if v < 1 || v > 10 {
				d.Errorf(n, key, "roll %d is outside every die's range (1-6 for a d6, 1-10 for a d10)", v)
			}
			s.Dice = append(s.Dice, v)
			s.DiceLine = append(s.DiceLine, n.Line)
		}
	}
}

// parseRaid reads a bombardment scenario (docs/scenario-format.md, docs/rules.md §5).
func parseRaid(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	r := &s.Raid
	for _, k := range []string{"crt", "table", "modifier", "hex", "attacker", "defender"} {
		if m.Has(k) {
			d.Errorf(m.Get(k), k, "a bombardment takes no %s (its keys are %s)", k, strings.Join(raidTopKeys[3:], ", "))
		}
	}
	parseAirTables(d, m, s)
	r.AirTables = s.AirTables
	for i, n := range m.Seq("options") {
		o, _ := d.Scalar(n, yamlx.Index("options", i))
		d.Errorf(n, yamlx.Index("options", i), "option %q does not apply to a bombardment", o)
	}
	m.Bool("night", &r.Night)
	m.Bool("intercepted", &r.Intercepted)
	t := d.Map(m.Get("target"), "target")
	count := func(key string, dst *int, hi int) {
		if t.Int(key, dst) && (*dst < 0 || *dst > hi) {
			d.Errorf(t.Get(key), t.Join(key), "%d is outside 0..%d", *dst, hi)
		}
	}
	count("factories", &r.Target.Factories, 20)
	count("oil", &r.Target.Oil, 20)
	count("synth_plants", &r.Target.SynthPlants, 20)
	// AsA 3.2: ships in port add their AA only to a port attack, a mission
	// with its own targets and tables that wifodds does not model; a
	// strategic bombardment adds the hex's intrinsic AA instead. The key
	// stays in the scenario format, so 0 is accepted; anything else would
	// be ignored, so it is refused.
	var ships int
	if t.Int("port_ships_aa", &ships) && ships != 0 {
		d.Errorf(t.Get("port_ships_aa"), t.Join("port_ships_aa"), "ships' AA fires only at a port attack (AsA 3.2), which wifodds does not model; a strategic bombardment adds the hex's intrinsic AA (factories, oil, synth plants) instead")
	}
	if t.Int("flak", &r.Target.Flak) && (r.Target.Flak < 0 || r.Target.Flak > 3) {
		d.Errorf(t.Get("flak"), "target.flak", "%d: flak is at most 3 factors a hex (AWAW 10.95)", r.Target.Flak)
	}
	t.Close(targetKeys...)
	if m.Get("target") == nil {
		d.Errorf(m.Node(), "target", "missing: what the raid bombs, e.g. {factories: 2}")
	}
	for i, n := range m.Seq("aa_units") {
		key := yamlx.Index("aa_units", i)
		um := d.Map(n, key)
		u := AAUnit{Line: n.Line}
		if !um.Int("factors", &u.Factors) {
			d.Errorf(n, key+".factors", "missing")
		} else if u.Factors < 1 || u.Factors > 20 {
			d.Errorf(um.Get("factors"), key+".factors", "%d is outside 1..20", u.Factors)
		}
		um.Bool("heavy", &u.Heavy)
		um.Str("name", &u.Name)
		um.Close("factors", "heavy", "name")
		r.AA = append(r.AA, u)
	}
	if len(r.AA) > 16 {
		d.Errorf(m.Get("aa_units"), "aa_units", "%d AA units: at most 16", len(r.AA))
	}
	items := m.Seq("bombers")
	if len(items) == 0 {
		d.Errorf(m.Node(), "bombers", "a raid needs at least one bomber")
	}
	if len(items) > 60 {
		d.Errorf(m.Get("bombers"), "bombers", "%d bombers: at most 60", len(items))
	}
	for i, n := range items {
		key := yamlx.Index("bombers", i)
		bm := d.Map(n, key)
		b := Bomber{Line: n.Line}
		if !bm.Int("a2a", &b.A2A) {
			d.Errorf(n, key+".a2a", "missing: the bomber's air-to-air factor")
		} else if b.A2A < 0 || b.A2A > 20 {
			d.Errorf(bm.Get("a2a"), key+".a2a", "%d is outside 0..20", b.A2A)
		}
		if !bm.Int("sb", &b.SB) {
			d.Errorf(n, key+".sb", "missing: the bomber's strategic bombardment factor")
		} else if b.SB < 0 || b.SB > 30 {
			d.Errorf(bm.Get("sb"), key+".sb", "%d is outside 0..30", b.SB)
		}
		bm.Str("name", &b.Name)
		if b.Name == "" {
			b.Name = fmt.Sprintf("bomber %d", i+1)
		}
		bm.Bool("carrier", &b.Carrier)
		bm.Close("name", "a2a", "sb", "carrier")
		r.Bombers = append(r.Bombers, b)
	}
	parseDice(d, m, s)
	m.Close(raidTopKeys...)
}

// parseAirTables reads air_tables: the built-in strategic tables or a file.
func parseAirTables(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	s.AirTables = "strategic"
	s.AirTablesPos = d.Pos(m.Get("air_tables"))
	if m.Str("air_tables", &s.AirTables) && s.AirTables != "strategic" {
		checkFileRef(d, m, s, "air_tables", s.AirTables, "the built-in strategic tables")
	}
}

// checkFileRef checks that a key naming a table file names a regular file,
// relative to the scenario's folder; builtin says what else it could name.
// A scenario parsed with NoFiles may name no file at all.
func checkFileRef(d *yamlx.Decoder, m *yamlx.Map, s *Scenario, key, ref, builtin string) {
	if s.noFiles {
		d.Errorf(m.Get(key), key, "%q names a file, which a scenario sent over the network may not; use %s, or send the table's content", ref, builtin)
		return
	}
	if s.tablesGiven {
		return
	}
	st, err := os.Stat(ResolvePath(d.File, ref))
	switch {
	case err != nil:
		d.Errorf(m.Get(key), key, "%q is neither %s nor a readable file", ref, builtin)
	case !st.Mode().IsRegular():
		d.Errorf(m.Get(key), key, "%q is not a regular file (a folder or a device); give %s or the path of a table file", ref, builtin)
	}
}

// AirTablesFile is the path of the air tables file the scenario names,
// taken from its folder; ok is false when it uses the built-in strategic
// tables.
func (s *Scenario) AirTablesFile() (path string, ok bool) {
	if s.AirTables == "" || s.AirTables == "strategic" {
		return "", false
	}
	return ResolvePath(s.File, s.AirTables), true
}

// ResolvePath resolves a path written in the scenario file, relative to the
// scenario's folder.
func ResolvePath(scenarioFile, ref string) string {
	if filepath.IsAbs(ref) {
		return ref
	}
	return filepath.Join(filepath.Dir(scenarioFile), ref)
}

func parseOptions(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	for i, n := range m.Seq("options") {
		key := yamlx.Index("options", i)
		o, ok := d.Enum(n, key, "option", AllOptions)
		if !ok {
			continue
		}
		if s.Options[o] {
			d.Errorf(n, key, "option %q is listed twice", o)
		}
		s.Options[o] = true
	}
	if s.Options[FractionalOdds] && s.Options[FractionalOddsD10] {
		d.Errorf(m.Get("options"), "options", "choose one of fractional-odds and fractional-odds-d10")
	}
}

func parseHex(d *yamlx.Decoder, n *yaml.Node, s *Scenario) { parseHexAt(d, n, "hex", s) }

// parseHexAt reads a hex at the key path: the scenario's, or a front
// target's.
func parseHexAt(d *yamlx.Decoder, n *yaml.Node, path string, s *Scenario) {
	h := &s.Hex
	h.Terrain, h.Weather, h.Supply = "clear", "clear", true
	m := d.Map(n, path)
	m.Enum("terrain", "terrain", crt.Terrains, &h.Terrain)
	m.Enum("weather", "weather", Weathers, &h.Weather)
	if m.Float("defence_multiplier", &h.DefenceMultiplier) && (h.DefenceMultiplier <= 0 || h.DefenceMultiplier > 10) {
		d.Errorf(m.Get("defence_multiplier"), m.Join("defence_multiplier"), "%v is outside (0, 10]", h.DefenceMultiplier)
	}
	m.Bool("city", &h.City)
	m.Bool("fortress", &h.Fortress)
	m.Bool("reference_town", &h.ReferenceTown)
	m.Bool("fortified", &h.Fortified)
	m.Bool("across_river", &h.AcrossRiver)
	m.Bool("home_nation", &h.HomeNation)
	m.Bool("supply", &h.Supply)
	m.Bool("surprise", &h.Surprise)
	m.Bool("adjacent_friendly_corps", &h.AdjacentFriendlyCorps)
	if m.Bool("coastal", &h.Coastal) && !h.Coastal && s.Kind == Invasion {
		d.Errorf(m.Get("coastal"), m.Join("coastal"), "an invaded hex is coastal: drop coastal: false")
	}
	if h.City && h.ReferenceTown {
		d.Errorf(m.Get("reference_town"), m.Join("reference_town"), "a reference town is not a city (AfA 1.5); set only one")
	}
	if s.Kind != Land {
		for _, k := range []string{"across_river"} {
			var v bool
			if m.Bool(k, &v) && v {
				d.Errorf(m.Get(k), m.Join(k), "does not apply to %ss: the attackers come from the sea or the air", s.Kind)
			}
		}
	}
	awaw := func(key string) {
		var v bool
		if m.Bool(key, &v) && v && !s.Has(AWAWUnitEffects) {
			d.Errorf(m.Get(key), m.Join(key), "needs the awaw-unit-effects option")
		}
	}
	awaw("protected")
	m.Bool("protected", &h.Protected)
	for _, k := range []string{"home_nation", "surprise", "adjacent_friendly_corps"} {
		if k == "home_nation" && s.Has(AWAWUnitEffects) {
			continue
		}
		if s.Kind == Land && m.Has(k) {
			var v bool
			if m.Bool(k, &v) && v {
				d.Errorf(m.Get(k), m.Join(k), "applies only to invasions and paradrops (the notional unit, docs/rules.md §4)")
			}
		}
	}
	m.Close(hexKeys...)
}

// parseSide reads a side at the key path; role is "attacker" or "defender".
func parseSide(d *yamlx.Decoder, n *yaml.Node, path, role string, s *Scenario) Side {
	side := Side{CanRetreat: true}
	if n != nil {
		side.Line = n.Line
	}
	m := d.Map(n, path)
	m.Bool("hq_support", &side.HQSupport)
	if m.Float("ground_support", &side.GroundSupport) && (side.GroundSupport < 0 || side.GroundSupport > 500) {
		d.Errorf(m.Get("ground_support"), m.Join("ground_support"), "%v is outside 0..500", side.GroundSupport)
	}
	if m.Float("shore_bombardment", &side.ShoreBombardment) && (side.ShoreBombardment < 0 || side.ShoreBombardment > 500) {
		d.Errorf(m.Get("shore_bombardment"), m.Join("shore_bombardment"), "%v is outside 0..500", side.ShoreBombardment)
	}
	if m.Bool("attack_as_mud", &side.AttackAsMud) && role != "attacker" {
		d.Errorf(m.Get("attack_as_mud"), m.Join("attack_as_mud"), "only the attacker may elect to attack as if in mud")
	}
	if m.Bool("can_retreat", &side.CanRetreat) && role != "defender" {
		d.Errorf(m.Get("can_retreat"), m.Join("can_retreat"), "only the defender retreats")
	}
	if m.Bool("exploiting", &side.Exploiting) && side.Exploiting && (role != "attacker" || !s.Has(AWAWUnitEffects)) {
		d.Errorf(m.Get("exploiting"), m.Join("exploiting"), "an attack by exploiting armour is an attacker's, under the awaw-unit-effects option")
	}
	side.CTL = 1
	if m.Int("ctl", &side.CTL) && (role != "defender" || !s.Has(AWAWUnitEffects)) {
		d.Errorf(m.Get("ctl"), m.Join("ctl"), "the defender's combat training level matters only under the awaw-unit-effects option")
	}
	if role == "defender" && side.ShoreBombardment > 0 {
		d.Errorf(m.Get("shore_bombardment"), m.Join("shore_bombardment"), "shore bombardment supports only the attacker")
	}
	for i, n := range m.Seq("naval_strikes") {
		key := yamlx.Index(m.Join("naval_strikes"), i)
		switch {
		case role != "attacker":
			d.Errorf(n, key, "only the attacker makes naval ground strikes")
		case !s.Has(NavalGroundStrike):
			d.Errorf(n, key, "naval ground strikes need the naval-ground-strike option (AsA 3.13)")
		}
		sm := d.Map(n, key)
		sh := Ship{Line: n.Line}
		sm.Str("name", &sh.Name)
		if sh.Name == "" {
			sh.Name = fmt.Sprintf("ship %d", i+1)
		}
		if !sm.Float("factors", &sh.Factors) {
			d.Errorf(n, key+".factors", "missing: the shore bombardment factors after the sea-box section modifier")
		} else if sh.Factors < 0 || sh.Factors > 50 {
			d.Errorf(sm.Get("factors"), key+".factors", "%v is outside 0..50", sh.Factors)
		}
		sm.Close(shipKeys...)
		side.NavalStrikes = append(side.NavalStrikes, sh)
	}
	for i, n := range m.Seq("aircraft") {
		key := yamlx.Index(m.Join("aircraft"), i)
		if role != "attacker" {
			d.Errorf(n, key, "only the attacker's ground-support aircraft face the defending AA here; give the defender's as ground_support")
		}
		am := d.Map(n, key)
		a := Aircraft{Line: n.Line}
		am.Str("name", &a.Name)
		if a.Name == "" {
			a.Name = fmt.Sprintf("aircraft %d", i+1)
		}
		if !am.Int("a2a", &a.A2A) {
			d.Errorf(n, key+".a2a", "missing: the aircraft's air-to-air factor")
		} else if a.A2A < 0 || a.A2A > 20 {
			d.Errorf(am.Get("a2a"), key+".a2a", "%d is outside 0..20", a.A2A)
		}
		if !am.Float("tactical", &a.Tactical) {
			d.Errorf(n, key+".tactical", "missing: the aircraft's tactical factors")
		} else if a.Tactical < 0 || a.Tactical > 30 {
			d.Errorf(am.Get("tactical"), key+".tactical", "%v is outside 0..30", a.Tactical)
		}
		am.Close(aircraftKeys...)
		side.Aircraft = append(side.Aircraft, a)
	}
	if len(side.NavalStrikes) > 8 || len(side.Aircraft) > 30 {
		d.Errorf(n, path, "at most 8 ships making naval ground strikes and 30 ground-support aircraft")
	}
	items := m.Seq("units")
	if len(items) > MaxSideUnits {
		d.Errorf(m.Get("units"), m.Join("units"), "%d units: at most %d a side", len(items), MaxSideUnits)
		items = items[:MaxSideUnits]
	}
	if len(items) > 0 {
		side.Units = make([]Unit, 0, len(items))
	}
	for i, it := range items {
		side.Units = append(side.Units, parseUnit(d, it, yamlx.Index(m.Join("units"), i), role, false, s))
	}
	avail := m.Seq("available")
	// The defender's reserves (a defender's plan, plan.side: defender)
	// are the top-level defender's; checkSide checks the plan says so.
	if role != "attacker" && len(avail) > 0 && path != "defender" {
		d.Errorf(m.Get("available"), m.Join("available"), "only the attacker chooses units to send (wifodds plan); a defender's reserves go under the top-level defender.available")
		avail = nil
	}
	if len(avail) > MaxAvailable {
		d.Errorf(m.Get("available"), m.Join("available"), "%d units: at most %d to choose from", len(avail), MaxAvailable)
		avail = avail[:MaxAvailable]
	}
	for i, it := range avail {
		side.Available = append(side.Available, parseUnit(d, it, yamlx.Index(m.Join("available"), i), role, true, s))
	}
	if role == "attacker" {
		parseSupport(d, m, &side)
	} else if m.Has("support_available") {
		d.Errorf(m.Get("support_available"), m.Join("support_available"), "only the attacker chooses support to send (wifodds plan)")
	}
	m.Close(sideKeys...)
	return side
}

// parseUnit reads a unit; plan is true for a unit a plan may send
// (attacker.available), which also takes id, cost and can_attack.
func parseUnit(d *yamlx.Decoder, n *yaml.Node, path, side string, plan bool, s *Scenario) Unit {
	u := Unit{Size: "corps", Supply: true, Line: n.Line}
	m := d.Map(n, path)
	var typ string
	if !m.Has("type") {
		d.Errorf(n, path+".type", "missing: want one of %s", strings.Join(sortedUnitTypes(), ", "))
	}
	if m.Enum("type", "unit type", sortedUnitTypes(), &typ) {
		u.Type = UnitType(typ)
	}
	m.Enum("size", "size", sizes, &u.Size)
	if !m.Float("factors", &u.Factors) {
		if !m.Has("factors") {
			d.Errorf(n, path+".factors", "missing")
		}
	} else if u.Factors < 0 || u.Factors > 100 {
		d.Errorf(m.Get("factors"), path+".factors", "%v is outside 0..100", u.Factors)
	}
	parseNation(d, m, path, &u)
	m.Bool("face_down", &u.FaceDown)
	m.Bool("supply", &u.Supply)
	if m.Int("section", &u.Section) {
		switch {
		case s.Kind != Invasion || side != "attacker":
			d.Errorf(m.Get("section"), path+".section", "sea-box sections apply only to invading units")
		case u.Section < 1 || u.Section > 3:
			d.Errorf(m.Get("section"), path+".section", "section %d: want 1, 2 or 3 (AsA 3.11)", u.Section)
		}
	} else if s.Kind == Invasion && side == "attacker" {
		u.Section = 3
	}
	if m.Bool("ls", &u.LS) && u.LS {
		switch {
		case s.Kind != Invasion || side != "attacker":
			d.Errorf(m.Get("ls"), path+".ls", "only invading units travel by LS")
		case u.Nation != "GE" && u.Nation != "JA":
			d.Errorf(m.Get("ls"), path+".ls", "only German and Japanese LS may invade (AsA 3.10, 3.11)")
		case u.IsCorps() || !slices.Contains([]UnitType{INF, MAR, PARA, MTN}, u.Type):
			d.Errorf(m.Get("ls"), path+".ls", "an LS carries one INF, MAR, PARA or MTN division (AsA 3.10)")
		case u.Section != 3:
			d.Errorf(m.Get("ls"), path+".ls", "an LS invades only from the 3-section (AsA 3.11)")
		}
	}
	var role string
	if m.Enum("role", "role (combat joins the land combat, strike makes a ground strike first, support adds its factors)",
		[]string{string(RoleCombat), string(RoleStrike), string(RoleSupport)}, &role) {
		u.Role = Role(role)
		switch {
		case u.Type != ART:
			d.Errorf(m.Get("role"), path+".role", "only ART units bombard (AsA 3.2.3)")
		case !s.Has(Artillery):
			d.Errorf(m.Get("role"), path+".role", "artillery roles need the artillery option (AsA 3.2.3)")
		case u.Role == RoleStrike && side != "attacker":
			d.Errorf(m.Get("role"), path+".role", "a stack under attack cannot bombard (AsA 3.2.3); a defending ART may only give support from an adjacent hex")
		}
	}
	if u.Role == "" {
		u.Role = RoleCombat
	}
	if m.Bool("mech_negated", &u.MechNegated) && u.MechNegated && (u.Type != ARM && u.Type != MECH || !s.Has(AWAWUnitEffects)) {
		d.Errorf(m.Get("mech_negated"), path+".mech_negated", "only ARM and MECH units have a mechanized component, under the awaw-unit-effects option (AWAW 10.32)")
	}
	if m.Bool("isolated", &u.Isolated) && u.Isolated && (u.Type != CHINDIT || !s.Has(AWAWUnitEffects)) {
		d.Errorf(m.Get("isolated"), path+".isolated", "only Chindits count as isolated, under the awaw-unit-effects option (AWAW 10.64A)")
	}
	if u.IsArtillery() && side == "attacker" && s.Kind != Land && u.Role == RoleCombat {
		// Only the units that land or drop are barred: an ART bombarding
		// the hex from next to it is not one of them (AsA 3.2.3, 3.11).
		d.Errorf(m.Get("type"), path+".type", "AT, AA and ART units cannot invade or be air transported (AsA 3.2); an ART may bombard the hex from an adjacent one with role: strike or support (AsA 3.2.3)")
	}
	if s.Kind == Invasion && side == "attacker" && u.Role != RoleCombat && m.Has("section") {
		d.Errorf(m.Get("section"), path+".section", "a bombarding ART does not invade, so it has no sea-box section (AsA 3.2.3, 3.11)")
	}
	if m.Bool("towed", &u.Towed) && u.Towed && u.Type != AT && u.Type != AA && u.Type != ART {
		d.Errorf(m.Get("towed"), path+".towed", "only AT, AA and ART units are towed")
	}
	if m.Enum("red_circle", "red circle", []string{"dark", "light"}, &u.RedCircle) {
		if u.Type != AT && u.Type != AA {
			d.Errorf(m.Get("red_circle"), path+".red_circle", "only AT and AA units have red circles (AsA 3.2.1)")
		}
	}
	if m.Bool("heavy", &u.Heavy) && u.Heavy && u.Type != AA {
		d.Errorf(m.Get("heavy"), path+".heavy", "only AA units are heavy")
	}
	if m.Bool("division_available", &u.DivisionAvailable) && u.DivisionAvailable {
		switch {
		case !s.Has(Kampfgruppe):
			d.Errorf(m.Get("division_available"), path+".division_available", "needs the kampfgruppe option (AsA 3.1.1)")
		case !u.IsCorps():
			d.Errorf(m.Get("division_available"), path+".division_available", "only a corps or army is replaced by a division (AsA 3.1.1)")
		}
	}
	if m.Float("division_factors", &u.DivisionFactors) {
		switch {
		case !u.DivisionAvailable:
			d.Errorf(m.Get("division_factors"), path+".division_factors", "give it with division_available: true (the division that replaces the corps, AsA 3.1.1)")
		case u.DivisionFactors < 0 || u.DivisionFactors > u.Factors:
			d.Errorf(m.Get("division_factors"), path+".division_factors", "%v is outside 0..%v (the corps' own factors)", u.DivisionFactors, u.Factors)
		}
	}
	m.Bool("ski", &u.Ski)
	m.Bool("white_print", &u.WhitePrint)
	m.Bool("territorial", &u.Territorial)
	m.Str("name", &u.Name)
	if m.Float("bp", &u.BP) && (u.BP < 0 || u.BP > 100) {
		d.Errorf(m.Get("bp"), path+".bp", "%v is outside 0..100", u.BP)
	}
	if m.Bool("katyusha", &u.Katyusha) && u.Katyusha && (u.Type != ART || u.Towed) {
		d.Errorf(m.Get("katyusha"), path+".katyusha", "a Katyusha is an ART unit, self-propelled for combat (AsA 3.2): not towed")
	}
	if u.Type == REPL && side == "attacker" {
		d.Errorf(m.Get("type"), path+".type", "replacements never attack (AWAW 10.23)")
	}
	if plan {
		parsePlanUnit(d, m, path, &u)
		m.Close(append(unitKeys[:len(unitKeys):len(unitKeys)], planUnitKeys...)...)
		return u
	}
	m.Close(unitKeys...)
	return u
}

// checkCombat validates what needs the whole scenario: docs/rules.md §2.1's
// attack-as-mud election and AsA 3.4 stacking.
func checkCombat(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) { checkCombatAt(d, m, "", s) }

// checkCombatAt is checkCombat for the combat whose keys are under the key
// path prefix (empty, or an operation's "targets[i].").
func checkCombatAt(d *yamlx.Decoder, m *yamlx.Map, prefix string, s *Scenario) {
	if len(s.Attacker.Units) == 0 && !s.IsPlan() {
		d.Errorf(m.Get("attacker"), prefix+"attacker.units", "a %s needs at least one attacking unit", s.Kind.noun())
	}
	if len(s.Targets) == 0 {
		checkDefender(d, m, prefix+"defender", s)
	}
	if s.Attacker.AttackAsMud {
		att := d.Map(m.Get("attacker"), prefix+"attacker")
		n := att.Get("attack_as_mud")
		if s.Hex.Weather != "winter" && s.Hex.Weather != "severe-winter" {
			d.Errorf(n, prefix+"attacker.attack_as_mud", "the election applies only in winter or severe-winter, not %s (AfA 3.11)", s.Hex.Weather)
		}
		cold := 0
		for i := range s.Attacker.Units {
			if s.Attacker.Units[i].ColdWeather() {
				cold++
			}
		}
		if 2*cold < len(s.Attacker.Units) {
			d.Errorf(n, prefix+"attacker.attack_as_mud", "needs half or more of the attackers to be ski, Russian white-print, Finnish, Swedish or Norwegian units; %d of %d are (AfA 3.11)", cold, len(s.Attacker.Units))
		}
	}
}

// checkDefender checks a defending stack at the key path: a land combat
// needs one (invasions and paradrops may meet only the notional unit,
// docs/rules.md §4), and AsA 3.4 stacking.
func checkDefender(d *yamlx.Decoder, m *yamlx.Map, path string, s *Scenario) {
	if len(s.Defender.Units) == 0 && s.Kind == Land {
		d.Errorf(m.Get("defender"), path+".units", "a land combat needs at least one defending unit")
	}
	if s.Has(Stacking) {
		if !StackWithinLimit(s.Defender.Units) {
			var names []string
			for i := range s.Defender.Units {
				names = append(names, s.Defender.Units[i].Label())
			}
			d.Errorf(m.Get("defender"), path+".units", "the stack (%s) breaks the stacking limit: any three land units, at most two of them corps or armies (AsA 3.4)", strings.Join(names, ", "))
		}
	}
}

// parseNation reads a unit's nation and stores its code (docs/scenario-format.md,
// Nation codes): every spelling of one nation is one nationality.
func parseNation(d *yamlx.Decoder, m *yamlx.Map, path string, u *Unit) {
	var name string
	if !m.Str("nation", &name) || strings.TrimSpace(name) == "" {
		if !m.Has("nation") || m.Get("nation") != nil {
			d.Errorf(m.Node(), path+".nation", "missing or empty: give the unit's nationality, e.g. GE or Germany")
		}
		return
	}
	code, ok := LookupNation(name)
	if !ok {
		msg := fmt.Sprintf("unknown nation %q", name)
		if c := yamlx.Closest(strings.ToUpper(strings.TrimSpace(name)), nationSpellings()); c != "" {
			code, _ := LookupNation(c)
			msg += fmt.Sprintf(" (did you mean %s, %s?)", code, nationName(code))
		}
		d.Errorf(m.Get("nation"), path+".nation", "%s; the nations are listed in docs/scenario-format.md", msg)
		return
	}
	u.Nation = code
}

// keySynonyms are words players write for scenario keys; an unknown key
// that is one of them is answered with the key it means.
var keySynonyms = map[string]string{
	"river": "across_river", "rivers": "across_river", "river_crossing": "across_river",
	"fort": "fortified", "fortification": "fortified", "fortifications": "fortified",
	"defense_multiplier": "defence_multiplier", "multiplier": "defence_multiplier",
	"mod": "modifier", "drm": "modifier", "die_roll_modifier": "modifier",
	"attackers": "attacker", "defenders": "defender",
	"hq": "hq_support", "air_support": "ground_support", "tactical": "ground_support", "shore": "shore_bombardment",
	"strength": "factors", "factor": "factors", "combat_factors": "factors",
	"nationality": "nation", "country": "nation", "unit_type": "type",
	"facedown": "face_down", "face-down": "face_down", "flipped": "face_down",
	"in_supply": "supply", "supplied": "supply", "crt_table": "crt", "results_table": "crt",
}
