// An event as the events API answers it (the spec's Event): its object, and the body a
// webhook carries for it, which is what its deliveries send.
import type { components } from '../../generated/platform.types';
import { type AccountEnvironment, webhookBodyObjectOf } from './event-body';
import type { EventDeliverySummary, ListedEvent } from './events.repository';

type Schemas = components['schemas'];
export type EventView = Schemas['Event'];
type EventType = Schemas['EventType'];
type ObjectType = NonNullable<Schemas['EventObject']>['type'];

const KINDS = { platform: 'PLATFORM', pix: 'PIX', rec: 'REC', cobr: 'COBR' } as const;

function objectView(e: ListedEvent): Schemas['EventObject'] {
  if (e.object_type === null) return null;
  return { type: e.object_type as ObjectType, id: e.object_id, correlationID: e.correlation_id };
}

export function deliverySummaryView(d: EventDeliverySummary): Schemas['EventDelivery'] {
  return {
    id: d.id,
    webhookId: d.webhookId,
    webhookKind: KINDS[d.webhookKind as keyof typeof KINDS],
    status: d.status as Schemas['EventDelivery']['status'],
    isTest: d.isTest,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastErrorClass: d.lastErrorClass as Schemas['WebhookErrorClass'],
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: d.status === 'PENDING' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: d.createdAt.toISOString(),
  };
}

// The stored type is one of the spec's: every recording site writes a type of EventType (the
// list is checked against the spec in event-types.ts).
export function eventView(
  e: ListedEvent,
  environment: AccountEnvironment,
  deliveries?: EventDeliverySummary[],
): EventView {
  return {
    id: e.id,
    type: e.type as EventType,
    createdAt: e.created_at.toISOString(),
    isTest: e.is_test,
    object: objectView(e),
    payload: webhookBodyObjectOf(e, environment),
    ...(deliveries ? { deliveries: deliveries.map(deliverySummaryView) } : {}),
  };
}
