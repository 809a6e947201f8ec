// Postgres error codes callers react to (both drivers report them as `code`).
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === '23505';
}

// A deadlock or serialization failure: the transaction was rolled back and may run again.
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40P01' || code === '40001';
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

// Runs a whole transaction again when Postgres aborted it for a deadlock or serialization
// failure (two payments crossing between the same accounts lock in opposite orders).
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (error) {
      if (i >= attempts || !isRetryableConflict(error)) throw error;
      await new Promise((ok) => setTimeout(ok, 5 * i + Math.floor(Math.random() * 10)));
    }
  }
}
