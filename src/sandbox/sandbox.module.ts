// The sandbox area's service, over the identity area's service.
import type { Clock } from '../db/clock';
import type { IdentityService } from '../identity/identity.service';
import { SandboxService } from './sandbox.service';

export interface SandboxDependencies {
  identity: IdentityService;
  clock: Clock;
  // Told after a company's clock moved forward, before the move answers: the composition root
  // does the work that came due with it (the company's expiries, then the jobs woken).
  clockAdvanced: (companyId: string) => Promise<void>;
}

export function buildSandboxService({ identity, clock, clockAdvanced }: SandboxDependencies): SandboxService {
  return new SandboxService(identity, clock, clockAdvanced);
}
