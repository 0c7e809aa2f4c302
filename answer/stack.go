package answer

import "github.com/wifodds/wifodds/scenario"

// Stack reads a stack as players write it on one line ("3x INF 4 GE, ARM
// 6 GE") into the units a scenario file lists, for the page's quick-entry
// box: one parser, scenario.ParseStack, for the server and the browser
// build alike. Its errors are the player's (InputError).
func Stack(text string) ([]scenario.StackUnit, error) {
	units, err := scenario.ParseStack(text)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return units, nil
}
