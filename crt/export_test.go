package crt

import "fmt"

// AirSource returns the data file of the embedded air tables, for tests
// that edit it.
func AirSource(name string) ([]byte, error) {
	data, err := airData.ReadFile("airdata/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("crt: no built-in air tables %q", name)
	}
	return data, nil
}
