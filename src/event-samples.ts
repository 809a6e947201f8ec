// The sample payloads of test events, by type: every area's builders (each made by the code
// that makes the area's real payloads), put together for the webhooks area.
import { chargeEventSamples } from './charges/charges.module';
import { disputeEventSamples } from './disputes/disputes.service';
import type { EventSamples } from './events/events.service';
import { recoveryEventSamples } from './funds-recovery/funds-recovery.service';
import { keyEventSamples } from './keys/keys.service';
import { onboardingEventSamples } from './kyc/kyc.module';
import { paymentEventSamples } from './payments/payments.module';
import { pixInEventSamples } from './pixin/pixin.module';
import { subscriptionEventSamples } from './subscriptions/subscriptions.module';

export const eventSamples: EventSamples = {
  ...chargeEventSamples,
  ...pixInEventSamples,
  ...paymentEventSamples,
  ...disputeEventSamples,
  ...keyEventSamples,
  ...recoveryEventSamples,
  ...onboardingEventSamples,
  ...subscriptionEventSamples,
};
