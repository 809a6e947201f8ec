// The decode area's service: what a Pix code says, its links under the configured public URL.
import type { Config } from '../config';
import { DecodeService } from './decode.service';

export interface DecodeDependencies {
  config: Pick<Config, 'publicUrl'>;
}

export function buildDecodeService({ config }: DecodeDependencies): DecodeService {
  return new DecodeService(config.publicUrl);
}
