// The sandbox area's service, over the identity area's service.
import type { Clock } from '../db/clock';
import type { IdentityService } from '../identity/identity.service';
import { SandboxService } from './sandbox.service';

export interface SandboxDependencies {
  identity: IdentityService;
  clock: Clock;
}

export function buildSandboxService({ identity, clock }: SandboxDependencies): SandboxService {
  return new SandboxService(identity, clock);
}
