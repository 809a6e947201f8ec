// Validation errors of a oneOf, reduced to the branch the input meant. With allErrors, ajv
// reports every branch's errors (a PIX_KEY payment body would hear about qrCode, holder and
// boletoBarcode); when exactly one branch has no enum/const mismatch on a property of the
// object itself (its discriminator, such as `type`), only that branch's errors are kept.
import type { ErrorObject } from 'ajv';

function isDirectChild(path: string, parent: string): boolean {
  return path.startsWith(`${parent}/`) && !path.slice(parent.length + 1).includes('/');
}

export function pruneOneOfBranches(list: ErrorObject[]): ErrorObject[] {
  let out = list;
  for (const summary of list.filter((e) => e.keyword === 'oneOf')) {
    const prefix = `${summary.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const e of out) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const branch = e.schemaPath.slice(prefix.length).split('/')[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const meant = [...branches.values()].filter((errs) => !errs.some((e) => (e.keyword === 'enum' || e.keyword === 'const') && isDirectChild(e.instancePath, summary.instancePath)));
    if (meant.length !== 1) continue;
    const keep = new Set(meant[0]);
    out = out.filter((e) => e !== summary && (!e.schemaPath.startsWith(prefix) || keep.has(e)));
  }
  return out;
}
