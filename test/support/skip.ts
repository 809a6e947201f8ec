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

const INDEPENDENT = {
  'own embedded database': "runs its servers on the embedded database (DATABASE_URL='') whatever the suite's",
  'own DATABASE_URL': "gives its server a DATABASE_URL of its own, not the suite's",
  'no database': 'touches no database',
};

// Tests whose verdict cannot depend on the suite's database: they start their servers on a
// database of their own choosing, or touch none at all (a type check, a rule over the specs).
// `make test` runs them; the suite's second run, on Postgres (.ci/run), names them as skipped
// instead of repeating them to the same verdict. `why` says which kind the test is.
export function onceOnEmbeddedRun(why: keyof typeof INDEPENDENT): Define {
  return runsOnlyIf(
    !process.env.DATABASE_URL,
    `${INDEPENDENT[why]}: make test runs it; on Postgres it would run unchanged`,
  );
}
