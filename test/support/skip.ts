// Tests that cannot run on this database are skipped by name, with their reason printed (and
// listed again at the end of `make test`), never passed by returning early.
import { test } from 'uvu';

type Define = (name: string, fn: () => unknown) => void;

export function runsOnlyIf(condition: boolean, reason: string): Define {
  if (condition) return (name, fn) => test(name, fn as never);
  return (name, fn) => {
    console.log(`skipped: ${name} (${reason})`);
    test.skip(name, fn as never);
  };
}

// Races between connections or processes: the embedded database is one session in one process.
export const postgresOnly = runsOnlyIf(
  Boolean(process.env.DATABASE_URL),
  'needs Postgres (DATABASE_URL): the embedded database is one session in one process, nothing can race',
);
