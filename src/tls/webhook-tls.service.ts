// Webhooks over mutual TLS: each company's settings for its receivers (a CA bundle trusted
// beside Node's root store, and whether to probe receivers without a client certificate), and
// what the delivery worker needs to call a receiver over HTTPS: a connection that presents
// pixgate's client certificate and checks that the receiver asked for one, a probe without a
// certificate, and the reason a handshake failed in words.
//
// Whether a receiver asked for a client certificate is read from the handshake itself: a TLS
// client learns the signature algorithms it shares with the server only from the server's
// CertificateRequest (TLS 1.2 and 1.3 alike), so `getSharedSigalgs()` is empty after a
// handshake in which none was sent.
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type ConnectionOptions, connect, rootCertificates, type TLSSocket } from 'node:tls';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import { AnnouncedWrites } from '../db/announced-writes';
import type { ChangeFeed } from '../db/change-feed';
import { ReadCache } from '../db/read-cache';
import type { CompanyWebhookTls, Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { certificateFacts, splitPemBundle } from '../lib/x509';
import type { TlsAuthorityService } from './authority.service';
import * as repo from './tls.repository';
import { describeVerifyCode } from './verify-errors';

type SettingsAnswer = components['schemas']['WebhookTlsSettings'];
type SettingsInput = components['schemas']['WebhookTlsPayload'];

const MAX_BUNDLE_CERTIFICATES = 20;
const SETTINGS_TTL_MS = 60_000;
export const webhookTlsChange = (companyId: string) => `webhook-tls:${companyId}`;

// How pixgate connects to one company's receivers.
export interface ReceiverTls {
  // pixgate's client certificate (chain) and key, PEM.
  cert: string;
  key: string;
  // Node's root store plus the company's bundle.
  ca: string[];
  // The company asked that receivers be probed without a client certificate first.
  probe: boolean;
}

export class WebhookTlsService {
  private readonly settingsCache: ReadCache<CompanyWebhookTls>;
  // Settings are written with their announcement: applied here after the commit, heard by
  // every other process before the answer.
  private readonly writes: AnnouncedWrites<Database>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    feed: ChangeFeed,
    private readonly authority: TlsAuthorityService,
  ) {
    this.settingsCache = new ReadCache(feed, 'webhook-tls', SETTINGS_TTL_MS);
    this.writes = new AnnouncedWrites(feed);
  }

  async getSettings(principal: Principal): Promise<SettingsAnswer> {
    return settingsAnswerOf(await repo.findWebhookTls(this.db, principal.companyId));
  }

  // Replaces the settings and announces them: the next delivery, on any process, uses them.
  async setSettings(principal: Principal, input: SettingsInput): Promise<SettingsAnswer> {
    const pems = input.caBundle ? splitPemBundle(input.caBundle) : [];
    if (input.caBundle && pems.length === 0)
      throw errors.badRequest('caBundle holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    if (pems.length > MAX_BUNDLE_CERTIFICATES)
      throw errors.badRequest(`caBundle holds ${pems.length} certificates; at most ${MAX_BUNDLE_CERTIFICATES}`);
    const normalized = pems.map((pem, i) => {
      try {
        return certificateFacts(pem).pem;
      } catch {
        throw errors.badRequest(`caBundle: certificate ${i + 1} is not a valid X.509 certificate`);
      }
    });
    const row = await this.writes.transaction(this.db, async (trx) => {
      const stored = await repo.upsertWebhookTls(trx, {
        company_id: principal.companyId,
        ca_bundle_pem: normalized.length ? normalized.join('') : null,
        probe_receivers: input.probeReceivers,
        updated_at: await this.clock.now(principal.companyId, trx),
      });
      await this.writes.afterWrite(trx, webhookTlsChange(principal.companyId));
      return stored;
    });
    return settingsAnswerOf(row);
  }

  // What the delivery worker connects to the company's receivers with (cached per process,
  // forgotten on every process when the company changes its settings).
  async receiverTls(companyId: string): Promise<ReceiverTls> {
    const settings = await this.settingsCache.get(
      companyId,
      () => repo.findWebhookTls(this.db, companyId),
      (row) => row.company_id,
    );
    const own = await this.authority.webhookClientCredentials();
    return {
      cert: own.certificatePem,
      key: own.privateKeyPem,
      ca: [...rootCertificates, ...(settings?.ca_bundle_pem ? splitPemBundle(settings.ca_bundle_pem) : [])],
      probe: settings?.probe_receivers ?? false,
    };
  }
}

function settingsAnswerOf(row: CompanyWebhookTls | undefined): SettingsAnswer {
  const pems = row?.ca_bundle_pem ? splitPemBundle(row.ca_bundle_pem) : [];
  return {
    caCertificates: pems.map((pem) => {
      const facts = certificateFacts(pem);
      return { subject: facts.subject, notAfter: facts.notAfter.toISOString(), thumbprint: facts.thumbprint };
    }),
    ...(row?.ca_bundle_pem ? { caBundle: row.ca_bundle_pem } : {}),
    probeReceivers: row?.probe_receivers ?? false,
    ...(row ? { updatedAt: row.updated_at.toISOString() } : {}),
  };
}

// A receiver's TLS connection, handshake done.
export interface ReceiverConnection {
  socket: TLSSocket;
  // The receiver sent a CertificateRequest.
  askedClientCertificate: boolean;
  // pixgate's certificate was offered (false for a probe).
  presentedCertificate: boolean;
  protocol: string | null;
  // An error the connection met after the handshake (a TLS 1.3 receiver's alert arrives then).
  lateError?: Error;
}

export interface ConnectOptions {
  // A guarded DNS lookup (outside sandbox mode: no private addresses; src/webhooks/url-guard.ts).
  lookup?: LookupFunction;
  timeoutMs: number;
  // Connect without pixgate's client certificate (the probe).
  withoutCertificate?: boolean;
  // Accept a receiver that asks no client certificate (the probe; never for a delivery).
  allowNoCertificateRequest?: boolean;
}

// The code of the error a connection fails with when the receiver asked no client certificate.
export const NO_CERTIFICATE_REQUEST = 'ERR_PIXGATE_NO_CLIENT_CERTIFICATE_REQUEST';

interface HandshakeContext {
  presentedCertificate: boolean;
  secured: boolean;
  askedClientCertificate?: boolean;
}

const CONTEXT = Symbol('pixgate.tls');

function annotated(error: Error, context: HandshakeContext): Error {
  return Object.assign(error, { [CONTEXT]: context });
}

// Opens a TLS connection to the receiver of `url` (https), presenting pixgate's certificate and
// verifying the receiver's against `tls.ca` and the URL's host name. Rejects with an error that
// describeTlsError explains: the receiver's certificate, or a receiver that asked no client
// certificate (unless allowNoCertificateRequest).
export function connectReceiver(url: URL, tls: ReceiverTls, options: ConnectOptions): Promise<ReceiverConnection> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const presentedCertificate = !options.withoutCertificate;
  return new Promise((resolve, reject) => {
    const connectOptions: ConnectionOptions = {
      host,
      port: Number(url.port || 443),
      ca: tls.ca,
      minVersion: 'TLSv1.2',
      // SNI takes a name, never an address (RFC 6066).
      ...(isIP(host) ? {} : { servername: host }),
      ...(presentedCertificate ? { cert: tls.cert, key: tls.key } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    };
    const socket = connect(connectOptions);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        annotated(
          Object.assign(new Error(`TLS handshake timeout after ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' }),
          {
            presentedCertificate,
            secured: false,
          },
        ),
      );
    }, options.timeoutMs);
    const failed = (error: Error) => {
      clearTimeout(timer);
      reject(annotated(error, { presentedCertificate, secured: false }));
    };
    socket.once('error', failed);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.off('error', failed);
      const askedClientCertificate = (socket.getSharedSigalgs() ?? []).length > 0;
      const connection: ReceiverConnection = {
        socket,
        askedClientCertificate,
        presentedCertificate,
        protocol: socket.getProtocol(),
      };
      // Kept for the request's error: it may come before the request listens on the socket.
      socket.on('error', (error) => (connection.lateError ??= error));
      if (!askedClientCertificate && !options.allowNoCertificateRequest) {
        socket.destroy();
        const error = Object.assign(new Error('the receiver asked no client certificate'), {
          code: NO_CERTIFICATE_REQUEST,
        });
        return reject(annotated(error, { presentedCertificate, secured: true, askedClientCertificate }));
      }
      resolve(connection);
    });
  });
}

export interface ReceiverAnswer {
  statusCode: number | null;
  latencyMs: number;
  // Why the attempt failed, in words (TLS reasons from describeTlsError); null on an answer.
  error: string | null;
  ok: boolean;
  askedClientCertificate: boolean | null;
}

export interface SendOverTlsOptions extends Omit<ConnectOptions, 'withoutCertificate' | 'allowNoCertificateRequest'> {
  url: URL;
  method?: string;
  body: string;
  headers: Record<string, string>;
}

// One HTTPS request to a receiver over mutual TLS (a delivery attempt): success is a 2xx answer
// within the timeout; the answer's body is drained, not kept.
export async function sendOverMtls(tls: ReceiverTls, options: SendOverTlsOptions): Promise<ReceiverAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let connection: ReceiverConnection;
  try {
    connection = await connectReceiver(options.url, tls, options);
  } catch (error) {
    return { statusCode: null, latencyMs: elapsed(), error: reasonOf(error), ok: false, askedClientCertificate: null };
  }
  const remaining = Math.max(1, options.timeoutMs - elapsed());
  const answer = await requestOver(connection, options, remaining);
  return { ...answer, latencyMs: elapsed(), askedClientCertificate: connection.askedClientCertificate };
}

function requestOver(
  connection: ReceiverConnection,
  options: SendOverTlsOptions,
  timeoutMs: number,
): Promise<Omit<ReceiverAnswer, 'latencyMs' | 'askedClientCertificate'>> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<ReceiverAnswer, 'latencyMs' | 'askedClientCertificate'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const req = httpsRequest(
      options.url,
      {
        method: options.method ?? 'POST',
        headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
        // No agent: Node then asks createConnection for the socket (agent: false would make a
        // fresh agent that opens a connection of its own, without our certificate or CAs).
        createConnection: () => connection.socket,
      },
      (res) => {
        res.resume();
        const statusCode = res.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        finish({ statusCode, error: null, ok });
        res.on('end', () => connection.socket.end());
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timeout after ${timeoutMs} ms`, ok: false });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) =>
      finish({ statusCode: null, error: reasonOf(connection.lateError ?? error, connection), ok: false }),
    );
    req.end(options.body);
  });
}

function reasonOf(error: unknown, connection?: ReceiverConnection): string {
  const err = error as NodeJS.ErrnoException;
  return (describeTlsError(error, connection) ?? `${err.code ? `${err.code}: ` : ''}${err.message}`).slice(0, 500);
}

export interface ProbeResult {
  // The receiver completed a request over TLS without a client certificate: it does not
  // enforce mutual TLS (what a company that asks for probing wants to hear about).
  acceptedWithoutCertificate: boolean;
  askedClientCertificate: boolean | null;
  // What happened, in words.
  detail: string;
}

// Connects to the receiver without a client certificate and sends a HEAD request: a receiver
// that enforces mutual TLS refuses the handshake (or answers 401/403); one that answers
// anything else accepted a caller without a certificate.
export async function probeReceiver(url: URL, tls: ReceiverTls, options: Omit<ConnectOptions, 'withoutCertificate'>) {
  let connection: ReceiverConnection;
  try {
    connection = await connectReceiver(url, tls, {
      ...options,
      withoutCertificate: true,
      allowNoCertificateRequest: true,
    });
  } catch (error) {
    return refusedProbe(error);
  }
  const answer = await requestOver(
    connection,
    { ...options, url, method: 'HEAD', body: '', headers: { 'User-Agent': 'pixgate-webhooks/1 (mTLS probe)' } },
    options.timeoutMs,
  );
  const asked = connection.askedClientCertificate;
  if (answer.statusCode === null) return refusedProbe(new Error(answer.error ?? 'closed'), asked);
  if (answer.statusCode === 401 || answer.statusCode === 403)
    return {
      acceptedWithoutCertificate: false,
      askedClientCertificate: asked,
      detail: `the receiver completed the handshake without a client certificate but answered ${answer.statusCode}`,
    } satisfies ProbeResult;
  return {
    acceptedWithoutCertificate: true,
    askedClientCertificate: asked,
    detail: `the receiver accepted a connection without a client certificate (it ${asked ? 'asked for one but did not require it' : 'asked none'}) and answered ${answer.statusCode}`,
  } satisfies ProbeResult;
}

function refusedProbe(error: unknown, asked: boolean | null = null): ProbeResult {
  const reason = (error as Error).message === 'closed' ? 'closed the connection' : reasonOf(error);
  return {
    acceptedWithoutCertificate: false,
    askedClientCertificate: asked,
    detail: `the receiver refused a connection without a client certificate: ${reason}`,
  };
}

// TLS alerts (RFC 8446 section 6) a receiver sends about the client's certificate.
const CERTIFICATE_ALERTS: Record<number, string> = {
  42: 'bad_certificate',
  43: 'unsupported_certificate',
  44: 'certificate_revoked',
  45: 'certificate_expired',
  46: 'certificate_unknown',
  48: 'unknown_ca',
  49: 'access_denied',
  51: 'decrypt_error',
};

const PIXGATE_CA = "pixgate's CA (GET /sandbox/ca.pem) or the operator's";

// Why a connection to a receiver failed, in words, when TLS is the reason; undefined
// otherwise (a refused TCP connection, a DNS failure: the caller's own message says those).
// `connection`: the handshake that succeeded before the error, when there was one.
export function describeTlsError(error: unknown, connection?: ReceiverConnection): string | undefined {
  const err = error as NodeJS.ErrnoException & { [CONTEXT]?: HandshakeContext };
  const context: HandshakeContext | undefined =
    err?.[CONTEXT] ??
    (connection
      ? {
          presentedCertificate: connection.presentedCertificate,
          secured: true,
          askedClientCertificate: connection.askedClientCertificate,
        }
      : undefined);
  if (err?.code === NO_CERTIFICATE_REQUEST)
    return 'the receiver asked no client certificate: it does not check mutual TLS (configure it to request and verify one)';
  const verify = describeVerifyCode(
    err?.code,
    "the receiver's certificate",
    "Node's root CAs nor the company's webhook CA bundle (PUT /api/v1/webhook/tls)",
  );
  if (verify) return verify;
  const alert = /SSL alert number (\d+)/.exec(err?.message ?? '')?.[1];
  if (alert === '116') return 'the receiver requires a client certificate and got none (alert certificate_required)';
  if (alert && CERTIFICATE_ALERTS[Number(alert)])
    return `the receiver refused our client certificate (alert ${CERTIFICATE_ALERTS[Number(alert)]}): it must trust ${PIXGATE_CA}`;
  if (alert === '40')
    return 'the handshake failed (alert handshake_failure): the receiver refused our client certificate, or shares no protocol version or cipher with us';
  if (alert) return `the TLS handshake failed (alert number ${alert})`;
  const closed = err?.code === 'ECONNRESET' || err?.code === 'EPIPE' || /socket hang up/.test(err?.message ?? '');
  if (closed && context?.presentedCertificate && (context.askedClientCertificate || !context.secured))
    return `the receiver closed the connection once it had our client certificate: it refused it (it must trust ${PIXGATE_CA})`;
  return undefined;
}
