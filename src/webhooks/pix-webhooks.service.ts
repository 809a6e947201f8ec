// Webhooks of the Pix API (standard v2.8.2): one per Pix key of the receiver (/webhook/{chave},
// Pix received with a txid and their devolutions, posted to {webhookUrl}/pix), and one per
// company for recurrences (/webhookrec, {webhookUrl}/rec) and recurring charges
// (/webhookcobr, {webhookUrl}/cobr). A PUT answers the webhook's signing secret in the
// X-Pixgate-Webhook-Secret header (the same secret until the webhook is deleted).
import type { Kysely } from 'kysely';
import type { components, operations } from '../../generated/pix.types';
import { type Config, secretsBoxOf } from '../config';
import { openedWebhook, sealedWebhook } from './webhook-secrets';
import type { Database, Webhook } from '../db/schema';
import { errors } from '../errors/errors';
import { parametros, pixListQuery } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { findCompanyKey } from '../keys/keys.public';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import { checkWebhookUrl } from './url-guard';
import * as repo from './webhooks.repository';
import { newWebhookId, newWebhookSecret } from './webhooks.service';

export type CompanyWebhookKind = 'rec' | 'cobr';

type PixSchemas = components['schemas'];
type WebhookListQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;

const OPERACAO_INVALIDA = 'The request to configure a webhook breaks the schema or is semantically wrong.';
const NAMES: Record<CompanyWebhookKind, string> = { rec: 'recurrence', cobr: 'recurring-charge' };

export function keyWebhookView(w: Webhook, cnpj: string): PixSchemas['WebhookCompleto'] {
  return { webhookUrl: w.url, chave: w.chave!, cnpj, criacao: w.created_at.toISOString() };
}

// A key with a NUL character is none of the company's (and the database cannot hold it).
const isStorable = (text: string) => !text.includes('\u0000');

export class PixWebhooksService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly companies: CompanyDirectory,
  ) {}

  // The receiving user's CNPJ, which the standard's webhook object carries.
  private async cnpjOf(companyId: string): Promise<string> {
    return (await this.companies.get(companyId)).tax_id;
  }

  // Configures the webhook of one of the company's keys; answers its signing secret.
  async putKey(principal: Principal, chave: string, webhookUrl: string): Promise<string> {
    await this.checkUrl(webhookUrl, OPERACAO_INVALIDA);
    return this.db.transaction().execute(async (trx) => {
      if (!isStorable(chave) || !(await findCompanyKey(trx, principal.companyId, chave))) {
        throw errors.validation(
          [{ field: 'chave', message: 'The Pix key does not belong to this receiving user', value: chave }],
          OPERACAO_INVALIDA,
        );
      }
      const saved = await repo.upsertPixWebhook(trx, await this.newRow(trx, principal, 'pix', webhookUrl, chave));
      return openedWebhook(secretsBoxOf(this.config), saved).secret;
    });
  }

  async getKey(principal: Principal, chave: string) {
    const webhook = isStorable(chave)
      ? await repo.findPixWebhook(this.db, principal.companyId, 'pix', chave)
      : undefined;
    if (!webhook) throw errors.notFound(`No webhook is configured for key ${chave}.`);
    return keyWebhookView(webhook, await this.cnpjOf(principal.companyId));
  }

  async deleteKey(principal: Principal, chave: string): Promise<void> {
    if (!isStorable(chave) || !(await repo.deletePixWebhook(this.db, principal.companyId, 'pix', chave)))
      throw errors.notFound(`No webhook is configured for key ${chave}.`);
  }

  async listKeys(principal: Principal, query: WebhookListQuery): Promise<PixSchemas['WebhooksConsultados']> {
    const page = pixListQuery(query);
    // The database counts rows in a bigint: a page beyond what a number holds exactly is refused.
    if (!Number.isSafeInteger(page.offset)) {
      throw errors.validation(
        [{ field: 'paginacao.paginaAtual', message: 'is beyond any page', value: String(page.paginaAtual) }],
        'The list parameters are not valid',
      );
    }
    const { rows, total } = await repo.listKeyWebhooks(
      this.db,
      principal.companyId,
      page,
      page.offset,
      page.itensPorPagina,
    );
    const cnpj = await this.cnpjOf(principal.companyId);
    return { parametros: parametros(query, page, total), webhooks: rows.map((w) => keyWebhookView(w, cnpj)) };
  }

  async putCompany(principal: Principal, kind: CompanyWebhookKind, webhookUrl: string): Promise<string> {
    await this.checkUrl(webhookUrl, 'The request to configure a webhook breaks the schema.');
    return this.db
      .transaction()
      .execute(
        async (trx) =>
          openedWebhook(
            secretsBoxOf(this.config),
            await repo.upsertPixWebhook(trx, await this.newRow(trx, principal, kind, webhookUrl)),
          ).secret,
      );
  }

  // (Unknown query parameters are refused by the request validation: the standard's ConsultaInvalida.)
  // The same object answers both kinds (WebhookRecCompleto, WebhookCobRCompleto).
  async getCompany(principal: Principal, kind: CompanyWebhookKind): Promise<PixSchemas['WebhookRecCompleto']> {
    const webhook = await repo.findPixWebhook(this.db, principal.companyId, kind);
    if (!webhook) throw errors.notFound(`No ${NAMES[kind]} webhook is configured.`);
    return { webhookUrl: webhook.url, criacao: webhook.created_at.toISOString() };
  }

  async deleteCompany(principal: Principal, kind: CompanyWebhookKind): Promise<void> {
    if (!(await repo.deletePixWebhook(this.db, principal.companyId, kind)))
      throw errors.notFound(`No ${NAMES[kind]} webhook is configured.`);
  }

  private async checkUrl(webhookUrl: string, detail: string): Promise<void> {
    const check = await checkWebhookUrl(webhookUrl, this.config.sandbox);
    if (!check.ok)
      throw errors.validation(
        [{ field: 'webhookUrl', message: `webhookUrl ${check.reason}`, value: webhookUrl }],
        detail,
      );
  }

  private async newRow(
    trx: Kysely<Database>,
    principal: Principal,
    kind: 'pix' | CompanyWebhookKind,
    url: string,
    chave?: string,
  ) {
    const now = await this.clock.now(principal.companyId, trx);
    return sealedWebhook(secretsBoxOf(this.config), {
      id: newWebhookId(),
      company_id: principal.companyId,
      kind,
      event: null,
      chave: chave ?? null,
      name: null,
      url,
      authorization: null,
      is_active: true,
      secret: newWebhookSecret(),
      created_at: now,
      updated_at: now,
    });
  }
}
