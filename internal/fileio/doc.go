// Package fileio is the one way wifodds reads its input files and writes
// its outputs.
//
// ReadFile reads only regular files, through a limited reader, so a device
// such as /dev/zero or an endless pipe is refused at once instead of
// exhausting memory; Open streams a regular file the same way, its size
// checked before any of it is read. A Batch checks every output of a command before any
// work and writes them all or none: each regular file is replaced
// atomically with its mode kept, a symbolic link is followed to the file it
// names, a hard-linked file is rewritten in place so its other names see
// the report, and a pipe or character device (/dev/null, /dev/stdout on a
// pipe) is written in place, never replaced. A path naming one of the
// process's own descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N) that is open on a regular file is written through that
// descriptor, so `-o /dev/stdout >> log.txt` appends as the shell asked
// instead of replacing log.txt. A pipe is opened when it is
// checked, so one that nothing reads (within 0.2 s) is refused before any work, and a
// write its reader never takes stops when the context is cancelled. A
// read-only file, a socket, a block device, an output that is also an
// input, or one that two flags name, is refused. Folder makes the folder a
// command writes into; Scratch a private temporary one for a build.
package fileio
