// The services of the charges area (both APIs over one charge model) and its expiry job.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { ImagesService } from '../images/images.service';
import { PaymentPageService } from '../images/payment-page.service';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import type { PayloadKeyService } from '../signing/payload-keys.service';
import { CHARGE_EXPIRY_INTERVAL_MS, CHARGE_EXPIRY_JOB, ChargeExpiry } from './expiry.job';
import { rollUpChargeDays } from './charge-counts.repository';

export const CHARGE_COUNTS_JOB = 'charges.counts';
const CHARGE_COUNTS_INTERVAL_MS = 10 * 60_000;
import { LocService } from './loc/loc.service';
import { LoteCobvService } from './lotecobv/lotecobv.service';
import { PayloadService } from './payload/payload.service';
import { PlatformChargesService } from './platform/platform-charges.service';
import { StandardChargesService } from './standard/standard-charges.service';

export interface ChargesServices {
  standard: StandardChargesService;
  locs: LocService;
  lotes: LoteCobvService;
  payloads: PayloadService;
  platform: PlatformChargesService;
  images: ImagesService;
  paymentPages: PaymentPageService;
  expiry: ChargeExpiry;
}

export function buildChargesServices(
  config: Config,
  db: Kysely<Database>,
  clock: Clock,
  payloadKeys: PayloadKeyService,
  jobs: Scheduler,
  companies: CompanyDirectory,
): ChargesServices {
  const standard = new StandardChargesService(db, clock, companies, config.publicUrl);
  const expiry = new ChargeExpiry(db, clock, config.publicUrl);
  // Tests: jobs.runNow('charges.expiry'); the sandbox runs it right after moving the clock.
  jobs.register(CHARGE_EXPIRY_JOB, CHARGE_EXPIRY_INTERVAL_MS, async () => {
    await expiry.run();
  });
  // The daily counts lists read (charge-counts.repository): a day is rolled up once it ended.
  jobs.register(CHARGE_COUNTS_JOB, CHARGE_COUNTS_INTERVAL_MS, async () => {
    while ((await rollUpChargeDays(db, 100)) === 100);
  });
  return {
    standard,
    locs: new LocService(db, clock, config.publicUrl),
    lotes: new LoteCobvService(db, clock, standard),
    payloads: new PayloadService(db, clock, payloadKeys),
    platform: new PlatformChargesService(db, clock, companies, config.publicUrl),
    images: new ImagesService(db, config.publicUrl),
    paymentPages: new PaymentPageService(db, clock, config.publicUrl, config.sandbox),
    expiry,
  };
}

// What the boletos area needs of a BOLETO charge: its boleto, and its payment by barcode.
export { boletoOfCharge, locationIdOfBarcode, type ChargeBoleto } from './boleto-code';
export { completeCharge, lockChargeForPayment } from './payable';
export { chargeEventPayloadOf } from './charge-records';
export { cobvAmountsOn } from './charge-model';
// For test events of other areas (a Pix that pays a sample charge) and the charge events' own.
export { chargeEventSamples, sampleChargeInContext } from './platform/charge-samples';
export { chargeEventView, type ChargeEventView } from './charge-records';
