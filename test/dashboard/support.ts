// A browser-less dashboard session for the HTTP tests: its cookies, the CSRF token of its
// last page, and GET and POST as a form would send them.
import * as assert from 'uvu/assert';
import type { TestServer } from '../support/server';

export interface DashResponse {
  status: number;
  headers: Headers;
  text: string;
  statements: number;
}

export class DashboardSession {
  private cookies = new Map<string, string>();
  csrf = '';

  constructor(private readonly server: TestServer) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<DashResponse> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'accept-language': 'pt-BR',
    };
    let body: string | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(this.server.url + path, { method, headers, redirect: 'manual', ...(body ? { body } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text, statements: Number(res.headers.get('x-db-statements')) };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  // A form posted with this session's token (withToken false: without it).
  post(path: string, form: Record<string, string> = {}, options: { withToken?: boolean } = {}) {
    return this.request('POST', path, options.withToken === false ? form : { _csrf: this.csrf, ...form });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async signIn(credential: Record<string, string>): Promise<void> {
    await this.get('/dashboard/login');
    const res = await this.post('/dashboard/login', credential);
    assert.is(res.status, 303, res.text);
    assert.is(res.headers.get('location'), '/dashboard');
    const home = await this.get('/dashboard');
    assert.is(home.status, 200, home.text);
  }
}
