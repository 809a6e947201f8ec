// The sandbox area's service, over the identity area's service.
import type { Clock } from '../db/clock';
import type { IdentityService } from '../identity/identity.service';
import { SandboxService } from './sandbox.service';

export interface SandboxDependencies {
  identity: IdentityService;
  clock: Clock;
  // Told after a company's clock moved forward (the composition root wakes the jobs whose
  // work comes due with it).
  clockAdvanced: () => void;
}

export function buildSandboxService({ identity, clock, clockAdvanced }: SandboxDependencies): SandboxService {
  return new SandboxService(identity, clock, clockAdvanced);
}
