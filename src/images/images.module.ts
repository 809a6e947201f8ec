// The services of the images area: a charge's QR code image and its payer's page.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { ImagesService } from './images.service';
import { PaymentPageService } from './payment-page.service';

export interface ImagesServices {
  images: ImagesService;
  paymentPages: PaymentPageService;
}

export interface ImagesDependencies {
  config: Pick<Config, 'publicUrl' | 'sandbox'>;
  db: Kysely<Database>;
  clock: Clock;
}

export function buildImagesServices({ config, db, clock }: ImagesDependencies): ImagesServices {
  return {
    images: new ImagesService(db, config.publicUrl),
    paymentPages: new PaymentPageService(db, clock, config.publicUrl, config.sandbox),
  };
}
