// Every area's contract scenarios, by operationId (one file per area, so areas do not collide).
import { boletoScenarios } from './boletos';
import { catalogScenarios } from './catalog';
import { chargesScenarios } from './charges';
import { eventScenarios } from './events';
import { extrasScenarios } from './extras';
import { identityScenarios } from './identity';
import { kycScenarios } from './kyc';
import { paymentScenarios } from './payments';
import { pixinScenarios } from './pixin';
import { receiptScenarios } from './receipts';
import { recurrenceScenarios } from './recurrences';
import { subAccountScenarios } from './subaccounts';
import { subscriptionScenarios } from './subscriptions';
import { requestLogScenarios } from './request-logs';
import type { Scenario } from './types';
import { tlsScenarios } from './tls';
import { webhookScenarios } from './webhooks';

export type { ContractEnv, Prepared, Scenario } from './types';

export const scenarios: Record<string, Scenario> = {
  ...identityScenarios,
  ...kycScenarios,
  ...paymentScenarios,
  ...catalogScenarios,
  ...chargesScenarios,
  ...pixinScenarios,
  ...webhookScenarios,
  ...eventScenarios,
  ...recurrenceScenarios,
  ...extrasScenarios,
  ...subAccountScenarios,
  ...subscriptionScenarios,
  ...requestLogScenarios,
  ...receiptScenarios,
  ...boletoScenarios,
  ...tlsScenarios,
};
