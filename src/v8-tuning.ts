// V8 settings of the server process that NODE_OPTIONS cannot carry (Node refuses V8 flags
// there except a few), set before anything else runs: main.ts imports this module first.
import { setFlagsFromString } from 'node:v8';

// No allocation-site pretenuring. V8 watches each allocation site and, once most of its objects
// survive young collections, allocates its objects straight in the old generation. Under load
// the rows and answers of requests waiting on the database cross that line; allocated old, each
// one then kept the young objects it pointed to alive through every young collection until the
// next full one, and those were promoted in turn. Measured on the charge read (50 connections):
// 0.44 MB promoted per young collection with it, 0.09 MB without, and 109 to 118 µs of server
// CPU per read against 123 to 151 (docs/SPEED.md).
setFlagsFromString('--no-allocation-site-pretenuring');
