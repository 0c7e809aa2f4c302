// Package docs holds wifodds' specification in prose: the rules
// (rules.md), the scenario format (scenario-format.md), the architecture
// and the performance notes. It has no code; its test checks that every
// citation of these documents in the source names a section that exists.
package docs
