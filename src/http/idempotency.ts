// The Idempotency-Key layer of every platform POST (around the operation's handler, after its
// security and validation, so it covers every area's operations without their help).
//
// A key (at most 255 characters) is stored per company for at least 24 hours. The first
// request with it runs and, when it answers 2xx, its answer is kept byte for byte; the same
// key with the same request (operation, path, query and canonical body) replays that answer
// (header Idempotent-Replayed: true); with another request it answers 422; while the first
// is still running, 409. A request that fails (4xx, 5xx) changed nothing and frees its key,
// so it can be retried as is. Records live in the database: several processes share them.
import { withoutDeadline } from '../db/deadline';
import { isDatabaseUnavailable } from '../db/errors';
import { errors } from '../errors/errors';
import type { OperationMeta, Reply, Run } from './types';
import { fingerprintOf, IDEMPOTENCY_HEADER, MAX_KEY_LENGTH } from '../idempotency/idempotency.service';

// Frees the key (or keeps the answer) also when the request ran out of time: left RUNNING, it
// would answer the client's retry 409 until its lease ends. With the database away it stays
// RUNNING (it frees itself then); the request's own answer or failure stands, not this one.
async function finish(write: () => Promise<void>): Promise<void> {
  try {
    await withoutDeadline(write);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
  }
}

// Wraps a POST operation's handler with the Idempotency-Key behaviour.
export function idempotent(meta: OperationMeta, run: Run): Run {
  return async (req, koa) => {
    const key = koa.get(IDEMPOTENCY_HEADER);
    const { principal, services } = koa.state.requestContext;
    if (!key || !principal) return run(req, koa);
    if (key.length > MAX_KEY_LENGTH)
      throw errors.badRequest(`${IDEMPOTENCY_HEADER} must have at most ${MAX_KEY_LENGTH} characters`);
    const store = services.idempotency;
    const fingerprint = fingerprintOf(meta.operationId, koa.originalUrl, req.body);
    const claim = await store.claim(principal.companyId, key, meta.operationId, fingerprint);
    if (claim.kind === 'replay') return claim.reply;
    if (claim.kind === 'mismatch')
      throw errors.unprocessable(`${IDEMPOTENCY_HEADER} was already used with a different request`);
    if (claim.kind === 'running')
      throw errors.conflict(`A request with this ${IDEMPOTENCY_HEADER} is still being processed`);
    let reply: Reply | undefined;
    try {
      reply = await run(req, koa);
      return reply;
    } finally {
      await finish(() => store.finish(principal.companyId, key, fingerprint, reply));
    }
  };
}
