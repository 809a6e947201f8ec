// The services of the charges area (both APIs over one charge model), and what its jobs run
// (the rows of src/job-table.ts): the expiry (ChargesServices.chargeExpiry) and the daily counts.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import type { PayloadKeyService } from '../signing/payload-keys.service';
import { ChargeExpiry } from './expiry.job';
import { rollUpChargeDays } from './charge-counts.repository';
import { LocService } from './loc/loc.service';
import { LoteCobvService } from './lotecobv/lotecobv.service';
import { PayloadService } from './payload/payload.service';
import { PlatformChargesService } from './platform/platform-charges.service';
import { StandardChargesService } from './standard/standard-charges.service';

export { CHARGE_EXPIRY_JOB } from './expiry.job';
export const CHARGE_COUNTS_JOB = 'charges.counts';

// The daily counts lists read (charge-counts.repository): every day that ended is rolled up.
export async function rollUpChargeCounts(db: Kysely<Database>): Promise<void> {
  while ((await rollUpChargeDays(db, 100)) === 100);
}

export interface ChargesServices {
  // The Pix API's cob and cobv (the standard's), and the platform API's: the same records.
  standardCharges: StandardChargesService;
  platformCharges: PlatformChargesService;
  chargeLocs: LocService;
  chargeLotes: LoteCobvService;
  chargePayloads: PayloadService;
  chargeExpiry: ChargeExpiry;
}

export interface ChargesDependencies {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  payloadKeys: PayloadKeyService;
  companies: CompanyDirectory;
}

export function buildChargesServices({
  config,
  db,
  clock,
  payloadKeys,
  companies,
}: ChargesDependencies): ChargesServices {
  const standardCharges = new StandardChargesService(db, clock, companies, config.publicUrl);
  return {
    standardCharges,
    platformCharges: new PlatformChargesService(db, clock, companies, config.publicUrl),
    chargeLocs: new LocService(db, clock, config.publicUrl),
    chargeLotes: new LoteCobvService(db, clock, standardCharges),
    chargePayloads: new PayloadService(db, clock, payloadKeys),
    chargeExpiry: new ChargeExpiry(db, clock, config.publicUrl),
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
