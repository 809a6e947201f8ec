// The line scripts/test-worker.ts writes after each test file, read by scripts/test.ts: it
// starts with a NUL so no test's output can be taken for it.
export const FILE_END = '\u0000pixgate-test-file-end ';

// How many of its slowest tests a file reports (the run prints its ten slowest).
export const SLOWEST_TESTS = 10;
