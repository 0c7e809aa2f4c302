package operation

// Simulate is simulate, for the external tests that check a plan's
// recommendation as an operation (plan_test.go).
var Simulate = simulate

// Within is within, for the same tests.
var Within = within
