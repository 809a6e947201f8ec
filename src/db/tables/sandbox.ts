// The sandbox clock of the first migrations; each company's clock is now
// companies.clock_offset_ms (tables/identity.ts, src/lib/clock.ts).

export interface SandboxClockTable {
  id: number;
  offset_ms: number;
}

export interface SandboxTables {
  sandbox_clock: SandboxClockTable;
}
