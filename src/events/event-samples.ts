// Sample payloads of test events (POST /api/v1/webhook/{id}/test): each area that records
// events builds its samples with the code that builds the real payloads, from made-up objects
// (a charge, a Pix, a payment... that do not exist), around the company's real name and
// account. services.ts puts every area's builders together; the webhooks area calls them.
import type { Company } from '../db/schema';
import type { JsonObject } from '../lib/json';
import type { EventType } from './event-types';

// The company and the account an event is about, as the payload views take them.
export interface SampleParty {
  company_id: string;
  company_name: string;
  company_tax_id: string;
  account_id: string;
  branch: string;
  account_number: string;
  status: 'OPEN' | 'CLOSED';
}

export interface SampleContext {
  company: Company;
  party: SampleParty;
  // The company's default Pix key (a made-up one when it has none).
  pixKey: string;
  // The company's clock.
  now: Date;
  // A short random suffix the made-up ids share ("test-<suffix>"), so that they never name
  // a real object.
  suffix: string;
  publicUrl: string;
}

export type SampleBuilder = (ctx: SampleContext) => JsonObject;

export type EventSamples = Partial<Record<EventType, SampleBuilder>>;

// The prefix of every made-up id and correlationID of a sample.
export const SAMPLE_PREFIX = 'test-';
