// Contract scenarios of the events API: charges of the company record their events; the list
// is asked with a filter and the cursor of a first page, the read with a charge's event.
import { randomBytes } from 'node:crypto';
import type { ContractEnv, Scenario } from './types';

async function newCharge(env: ContractEnv): Promise<string> {
  const correlationID = `eventos-${randomBytes(4).toString('hex')}`;
  const charge = await env.client.post('/api/v1/charge', { correlationID, value: 1234 }, { auth: env.company.appID });
  if (charge.status !== 200) throw new Error(`events scenario: ${charge.status} ${charge.text}`);
  return correlationID;
}

async function firstPage(env: ContractEnv, query: string) {
  const list = await env.client.get(`/api/v1/events?${query}`, { auth: env.company.appID });
  if (list.status !== 200 || !list.body.events[0]) throw new Error(`events scenario: ${list.status} ${list.text}`);
  return list.body as { events: Array<{ id: string }>; nextCursor: string | null };
}

export const eventScenarios: Record<string, Scenario> = {
  // The page after the newest charge creation: the one before it.
  async listEvents(env) {
    await newCharge(env);
    await newCharge(env);
    const type = 'OPENPIX:CHARGE_CREATED';
    const { nextCursor } = await firstPage(env, `type=${encodeURIComponent(type)}&limit=1`);
    if (!nextCursor) throw new Error('events scenario: a first page of one event has no next cursor');
    return { query: { type, start: '2020-01-01T00:00:00Z', limit: '1', cursor: nextCursor } };
  },
  // A stream of one second (the replay reads it to its end): the ready message and heartbeat.
  async streamEvents() {
    return { query: { maxSeconds: '1', type: 'OPENPIX:CHARGE_COMPLETED' } };
  },
  async getEvent(env) {
    const correlationID = await newCharge(env);
    const { events } = await firstPage(env, `correlationID=${encodeURIComponent(correlationID)}`);
    return { params: { id: events[0]!.id } };
  },
};
