//go:build !unix

package fileio

// nonblock is zero where there is no O_NONBLOCK (the browser build, which
// writes no files): a pipe is opened as any file.
const nonblock = 0
