// Package yamlx decodes hand-written YAML strictly: every value is read from
// the parsed node tree, so each error can name the file, line, column and the
// dotted key path, and any key the caller did not ask for is reported rather
// than silently ignored.
//
// A Decoder collects errors instead of stopping at the first, so a user sees
// every problem in a file at once (up to MaxErrors).
//
// Parse reads the plain YAML that scenario and table files are written in
// with its own small parser and hands anything else to yaml.v3; both give
// the same node tree, so which one read a file never shows. ParseShared is
// Parse for a caller that hands the tree's nodes back to a pool when done.
//
// LineBreaker and CheckOneLine find a character that would break or
// reorder a report's line (newlines, bidirectional controls) in a name,
// an id or a key, which must be one line.
package yamlx
