//go:build tools

// Package tools pins modules the project depends on before code imports
// them: gonum.org/v1/plot for the comparison charts (issue 7).
package tools

import _ "gonum.org/v1/plot"
