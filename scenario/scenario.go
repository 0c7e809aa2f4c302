package scenario

// Kind is what a scenario describes.
type Kind string

// Scenario kinds.
const (
	Land        Kind = "land"
	Invasion    Kind = "invasion"
	Paradrop    Kind = "paradrop"
	Bombardment Kind = "bombardment"
)

func (k Kind) noun() string {
	if k == Land {
		return "land combat"
	}
	return string(k)
}

// Option names (docs/scenario-format.md).
const (
	FractionalOdds       = "fractional-odds"
	FractionalOddsD10    = "fractional-odds-d10"
	WildResults          = "wild-results"
	BlitzModifier        = "blitz-modifier"
	TerritorialModifiers = "territorial-modifiers"
	Kampfgruppe          = "kampfgruppe"
	Stacking             = "stacking"
	Artillery            = "artillery"
	NavalGroundStrike    = "naval-ground-strike"
	AWAWUnitEffects      = "awaw-unit-effects"
)

// AllOptions lists every option docs/scenario-format.md names.
var AllOptions = []string{FractionalOdds, FractionalOddsD10, WildResults, BlitzModifier, TerritorialModifiers,
	Kampfgruppe, Stacking, Artillery, NavalGroundStrike, AWAWUnitEffects}

// Scenario is one validated scenario file.
type Scenario struct {
	File   string // path it was loaded from
	Source []byte // the file's text, as read once
	// CRTPos and AirTablesPos are where the file names its tables
	// ("file:line:col", or the file when it does not), for errors about
	// the tables themselves.
	CRTPos, AirTablesPos string
	Name                 string
	Kind                 Kind
	CRT                  string // "standard", "2d6" or a path to a CRT data file
	Table                string // "auto", "assault" or "blitz"
	Options              map[string]bool
	Modifier             int // extra die-roll modifier
	Hex                  Hex
	Attacker             Side
	Defender             Side
	Dice                 []int // forced rolls, in the order the rules consume them
	DiceLine             []int // line of each forced roll, for messages
	Raid                 Raid  // kind: bombardment
	// AirTables are the AA chart and tables defending AA fire uses against
	// ground-support aircraft (and a raid's): "strategic" or a file.
	AirTables string
	// Plan is set for a plan file (IsPlan): what `wifodds plan` weighs.
	Plan *Plan
	// Targets are a front's hexes; empty for one hex.
	Targets []FrontTarget
	// Operation is set for a fixed operation (IsOperation): several
	// combats with given forces, for `wifodds run`.
	Operation *Operation

	noFiles     bool // parsed with ParseOptions.NoFiles
	tablesGiven bool // parsed with ParseOptions.TablesGiven
}

// Raid is a strategic bombardment (docs/rules.md §5).
type Raid struct {
	Night       bool
	Intercepted bool // an interceptor engaged: no +1 on the SB roll
	Target      Target
	AA          []AAUnit
	Bombers     []Bomber
	AirTables   string // "strategic" or a path to an air tables file (copied from Scenario.AirTables)
}

// Target is what a raid bombs and its intrinsic air defence.
type Target struct {
	Factories   int
	Oil         int // oil resource points in the hex
	SynthPlants int
	Flak        int // A World at War flak factors, at most 3
}

// AAUnit is an anti-aircraft unit in the target hex.
type AAUnit struct {
	Name    string
	Factors int
	Heavy   bool
	Line    int
}

// Bomber is one attacking aircraft.
type Bomber struct {
	Name    string
	A2A     int // air-to-air factor
	SB      int // strategic bombardment factor
	Carrier bool
	Line    int
}

// ForcesAssault reports terrain that forces the Assault table (docs/rules.md
// 2.3 (a)): a city or fortress hex, or an attack through a fortified
// hexside, which a paradrop does not cross (docs/rules.md §3); a reference town
// does not (AfA 1.5).
func (s *Scenario) ForcesAssault() bool {
	h := &s.Hex
	return h.City || h.Fortress || h.Fortified && s.Kind != Paradrop
}

// Has reports whether an option is on.
func (s *Scenario) Has(option string) bool { return s.Options[option] }

// Hex is the target hex.
type Hex struct {
	Terrain               string
	Weather               string
	DefenceMultiplier     float64 // 0 when not given: the terrain's multiplier applies
	City                  bool
	Fortress              bool
	ReferenceTown         bool
	Fortified             bool
	AcrossRiver           bool
	HomeNation            bool
	Supply                bool
	Surprise              bool
	AdjacentFriendlyCorps bool
	// Coastal is a hex next to a sea area, which ships may bombard
	// (AsA 3.13); an invaded hex is coastal whatever this says.
	Coastal bool
	// Protected is a capital, objective hex, IC, bridgehead or railhead,
	// where A World at War's exploiting-armour DMs do not apply.
	Protected bool
}

// Side is the attacker or the defender.
type Side struct {
	Line             int // where the side's mapping starts in the file
	HQSupport        bool
	GroundSupport    float64
	ShoreBombardment float64
	AttackAsMud      bool
	CanRetreat       bool // defender: false destroys units a R, S or B result would move
	Exploiting       bool // attacker: the attack is by exploiting armour (AWAW 10.13)
	CTL              int  // defender's combat training level (AWAW 10.32); default 1
	Units            []Unit
	// Attacker only: ships making naval ground strikes (option
	// naval-ground-strike) and ground-support aircraft that defending AA
	// units fire at.
	NavalStrikes []Ship
	Aircraft     []Aircraft
	// Attacker only, in a plan file: the units and support the attack may
	// add (docs/scenario-format.md, Plans).
	Available        []Unit
	SupportAvailable []Support
}

// Ship is a surface naval unit making a naval ground strike (AsA 3.13).
type Ship struct {
	Name    string
	Factors float64 // shore bombardment factors after the sea-box section, weather and terrain
	Line    int
}

// Aircraft is a ground-support aircraft.
type Aircraft struct {
	Name     string
	A2A      int
	Tactical float64
	Line     int
}

// Unit is one land unit.
type Unit struct {
	Name              string
	Type              UnitType
	Size              string // corps, army, division, brigade
	Factors           float64
	Nation            string
	FaceDown          bool
	Supply            bool
	Section           int // sea-box section an invading unit comes from (1-3)
	Towed             bool
	RedCircle         string // "", "dark" or "light"
	Heavy             bool   // heavy AA
	DivisionAvailable bool
	// DivisionFactors are the factors of the division that replaces the
	// corps under Kampfgruppe; the factors lost are the corps' less these
	// (docs/rules.md §3). 0 when not given: the whole corps counts as lost.
	DivisionFactors float64
	Ski             bool
	WhitePrint      bool
	Territorial     bool
	BP              float64 // build points, 0 when not given
	LS              bool    // a German or Japanese division invading by LS
	Role            Role    // ART under the artillery option: combat, strike or support
	MechNegated     bool    // an armour unit whose mechanized component is negated (AWAW 10.32)
	Isolated        bool    // a Chindit not in or adjacent to other non-Chindit Western Allied units (AWAW 10.64A)
	Katyusha        bool    // rocket artillery: self-propelled for combat (AsA 3.2)
	// An available unit's id, cost (build points; default its factors) and
	// the front targets it can attack (empty: any).
	ID        string
	Cost      float64
	CanAttack []string
	idPos     pos // where id and can_attack are written, for errors
	canPos    pos
	Line      int // line of the unit in the file, for messages
}

// Label names the unit for messages: its name, or type, size and nation.
func (u *Unit) Label() string {
	if u.Name != "" {
		return u.Name
	}
	return u.Nation + " " + string(u.Type) + " " + u.Size
}

// IsCorps reports whether the unit is a corps or army (not a division or brigade).
func (u *Unit) IsCorps() bool { return u.Size == "corps" || u.Size == "army" }
