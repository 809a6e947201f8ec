// HTML by tagged template: every interpolated value is escaped unless it is already Html (made
// by this tag or `raw`), arrays are joined, and null, undefined and false render nothing. The
// dashboard's pages are written with it, so nothing a user or payer typed reaches a page as
// markup.
import { escapeHtml } from '../../lib/html';

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

// Markup made here, trusted as it is (never text from a request or the database).
export const raw = (text: string) => new Html(text);

// A query string of the given parameters (empty ones left out), with a leading '?'.
export function queryOf(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}
