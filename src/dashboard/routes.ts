// Every page and action of the dashboard, by method and path.
import type { Page } from './context';
import { chargeLive, chargePage, chargesPage, refundCharge, simulateChargePayment } from './pages/charges';
import { homePage } from './pages/home';
import { approvePayment, keysPage, paymentsPage, pixPage, refundsPage, subaccountsPage } from './pages/money';
import { recurrencePage, recurrencesPage, subscriptionPage, subscriptionsPage } from './pages/recurring';
import { advanceClock, createTestCompany, sandboxPage } from './pages/sandbox';
import { eventPage, eventsPage } from './pages/events';
import { receiptFile } from './pages/receipts';
import { requestLogPage, requestPage } from './pages/requests';
import { deliveryPage, resendDelivery, sendTestEvent, webhookPage, webhooksPage } from './pages/webhooks';

interface Route {
  method: 'GET' | 'POST';
  path: string;
  page: Page;
  sandboxOnly?: boolean;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: '/dashboard', page: homePage },
  { method: 'GET', path: '/dashboard/charges', page: chargesPage },
  { method: 'GET', path: '/dashboard/charges/:id', page: chargePage },
  { method: 'GET', path: '/dashboard/charges/:id/live', page: chargeLive },
  { method: 'POST', path: '/dashboard/charges/:id/simulate', page: simulateChargePayment, sandboxOnly: true },
  { method: 'POST', path: '/dashboard/charges/:id/refund', page: refundCharge },
  { method: 'GET', path: '/dashboard/pix', page: pixPage },
  { method: 'GET', path: '/dashboard/refunds', page: refundsPage },
  { method: 'GET', path: '/dashboard/payments', page: paymentsPage },
  { method: 'POST', path: '/dashboard/payments/:id/approve', page: approvePayment },
  { method: 'GET', path: '/dashboard/subscriptions', page: subscriptionsPage },
  { method: 'GET', path: '/dashboard/subscriptions/:id', page: subscriptionPage },
  { method: 'GET', path: '/dashboard/recurrences', page: recurrencesPage },
  { method: 'GET', path: '/dashboard/recurrences/:id', page: recurrencePage },
  { method: 'GET', path: '/dashboard/keys', page: keysPage },
  { method: 'GET', path: '/dashboard/subaccounts', page: subaccountsPage },
  { method: 'GET', path: '/dashboard/webhooks', page: webhooksPage },
  { method: 'GET', path: '/dashboard/webhooks/:id', page: webhookPage },
  { method: 'POST', path: '/dashboard/webhooks/:id/test', page: sendTestEvent },
  { method: 'GET', path: '/dashboard/webhooks/:id/deliveries/:deliveryId', page: deliveryPage },
  { method: 'POST', path: '/dashboard/webhooks/:id/deliveries/:deliveryId/resend', page: resendDelivery },
  { method: 'GET', path: '/dashboard/events', page: eventsPage },
  { method: 'GET', path: '/dashboard/events/:id', page: eventPage },
  { method: 'GET', path: '/dashboard/requests', page: requestLogPage },
  { method: 'GET', path: '/dashboard/requests/:id', page: requestPage },
  { method: 'GET', path: '/dashboard/receipts/:type/:endToEndId', page: receiptFile },
  { method: 'GET', path: '/dashboard/sandbox', page: sandboxPage, sandboxOnly: true },
  { method: 'POST', path: '/dashboard/sandbox/clock', page: advanceClock, sandboxOnly: true },
  { method: 'POST', path: '/dashboard/sandbox/companies', page: createTestCompany, sandboxOnly: true },
];

// The route of a request and its path parameters (decoded; at most 200 characters each).
export function routeOf(
  method: string,
  path: string,
  sandbox: boolean,
): { page: Page; params: Record<string, string> } | undefined {
  const parts = path.replace(/\/+$/, '').split('/');
  for (const route of ROUTES) {
    if (route.method !== method || (route.sandboxOnly && !sandbox)) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, i) => {
      if (!segment.startsWith(':')) return segment === parts[i];
      const value = decoded(parts[i]!);
      if (value === undefined || value === '' || value.length > 200) return false;
      params[segment.slice(1)] = value;
      return true;
    });
    if (matches) return { page: route.page, params };
  }
  return undefined;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
