// The rail: the simulated Pix network every payment and key lookup goes through.
import type { Config } from '../config';
import { type Rail, SimulatedRail } from './rail.public';

export function buildRail(config: Pick<Config, 'sandbox' | 'publicUrl'>): Rail {
  return new SimulatedRail(config.sandbox, config.publicUrl);
}
