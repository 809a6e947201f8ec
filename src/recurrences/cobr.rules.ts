// Pure rules of recurring charges: the cycle of a due date within its recurrence, and the
// settlement date (next business day when ajusteDiaUtil).
import { nextBusinessDay } from '../lib/business-days';

const MONTHS: Record<string, number> = { MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

// The index of the cycle (0 = the one starting at dataInicial) a due date falls in. A cycle
// starting on a day a month lacks (the 31st) starts on that month's last day.
export function cycleOf(periodicidade: string, dataInicial: string, due: string): number {
  const [y1, m1, d1] = dataInicial.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = due.split('-').map(Number) as [number, number, number];
  if (periodicidade === 'SEMANAL')
    return Math.floor((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / (7 * 86_400_000));
  const lastDayOfMonth = new Date(Date.UTC(y2, m2, 0)).getUTCDate();
  const months = (y2 - y1) * 12 + (m2 - m1) - (d2 < Math.min(d1, lastDayOfMonth) ? 1 : 0);
  return Math.floor(months / (MONTHS[periodicidade] ?? 1));
}

export function settlementDateOf(due: string, ajusteDiaUtil: boolean): string {
  return ajusteDiaUtil ? nextBusinessDay(due) : due;
}

// Retries of PERMITE_3R_7D: at most 3, within 7 days after the first settlement date.
export const MAX_RETRIES = 3;
export const RETRY_WINDOW_DAYS = 7;

// The sandbox payer's limit for one recurring charge: attempts above it are rejected (AM02).
export const SANDBOX_PAYER_LIMIT_CENTS = 1_000_000;
