package answer

import (
	"slices"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"go.yaml.in/yaml/v3"
)

// Nation is a nation's code and name, as the page lists them.
type Nation struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Schema is the names the scenario format accepts, so the page's lists
// come from the same source as the rules.
func Schema() map[string]any {
	var nations []Nation
	for _, n := range scenario.Nations {
		nations = append(nations, Nation{n.Code, n.Name})
	}
	types := scenario.UnitTypes()
	slices.Sort(types)
	return map[string]any{
		"kinds":   []string{string(scenario.Land), string(scenario.Invasion), string(scenario.Paradrop), string(scenario.Bombardment)},
		"crts":    crt.Names(),
		"tables":  []string{"auto", "assault", "blitz"},
		"options": scenario.AllOptions,
		// A player's words for each option and hex flag: the page's
		// chips show these, and write the keys.
		"option_words": scenario.OptionWords,
		"hex_flags":    scenario.HexFlagWords,
		"key_words":    scenario.KeyWords,
		"terrains":     crt.Terrains,
		"weathers":     scenario.Weathers,
		"types":        types,
		"sizes":        scenario.Sizes(),
		"nations":      nations,
		"roles":        []string{string(scenario.RoleCombat), string(scenario.RoleStrike), string(scenario.RoleSupport)},
		"costs":        scenario.CostMeasures,
	}
}

// Document checks the scenario and returns it as a document with the
// file's keys, for a page to load into its form.
func Document(in Input) (map[string]any, error) {
	if _, err := in.parse(); err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(in.Text, &doc); err != nil {
		return nil, inputf("%s: %v", in.Name, err)
	}
	return doc, nil
}
