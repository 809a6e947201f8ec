// Validation errors of a oneOf, reduced to the branch the input meant. With allErrors, ajv
// reports every branch's errors (a PIX_KEY payment body would hear about qrCode, holder and
// boletoBarcode). The branch meant is found by its discriminator: a property of the object
// itself (such as `type`) that fails an enum/const in every branch but one. When the
// discriminator itself is missing or unknown, every branch says so alike: those errors are
// kept once, and the rest (which branch-specific field is missing) dropped. Without a
// discriminator, the branches that accept every property sent are the ones meant.
import type { ErrorObject } from 'ajv';

function isDirectChild(path: string, parent: string): boolean {
  return path.startsWith(`${parent}/`) && !path.slice(parent.length + 1).includes('/');
}

// The properties of the object under the oneOf whose enum/const failed in this branch.
function mismatchedProperties(errs: ErrorObject[], objectPath: string): Set<string> {
  const out = new Set<string>();
  for (const e of errs) {
    if ((e.keyword === 'enum' || e.keyword === 'const') && isDirectChild(e.instancePath, objectPath))
      out.add(e.instancePath.slice(objectPath.length + 1));
  }
  return out;
}

function missingProperties(errs: ErrorObject[], objectPath: string): Set<string> {
  const out = new Set<string>();
  for (const e of errs)
    if (e.keyword === 'required' && e.instancePath === objectPath)
      out.add(String((e.params as { missingProperty?: string }).missingProperty));
  return out;
}

function narrow(summary: ErrorObject, branches: Map<string, ErrorObject[]>): ErrorObject[] | undefined {
  const objectPath = summary.instancePath;
  const all = [...branches.values()];
  // A oneOf nested in a branch already dropped has nothing left to narrow.
  if (all.length === 0) return undefined;
  const mismatches = all.map((errs) => mismatchedProperties(errs, objectPath));
  // A discriminator: failing in all branches but one picks that one.
  const names = new Set(mismatches.flatMap((m) => [...m]));
  for (const name of names) {
    const clean = all.filter((_, i) => !mismatches[i]!.has(name));
    if (clean.length === 1 && all.length > 1) return clean[0];
  }
  // Failing in every branch (unknown value): one error about it is the answer.
  for (const name of names) {
    if (mismatches.every((m) => m.has(name))) {
      const first = all[0]!.find(
        (e) => (e.keyword === 'enum' || e.keyword === 'const') && e.instancePath === `${objectPath}/${name}`,
      )!;
      const allowed = all.flatMap((errs) =>
        errs
          .filter((e) => e.instancePath === `${objectPath}/${name}`)
          .flatMap((e) =>
            'allowedValues' in e.params ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue],
          ),
      );
      return [
        {
          ...first,
          keyword: 'enum',
          params: { allowedValues: [...new Set(allowed)] },
          message: `must be one of ${[...new Set(allowed)].join(', ')}`,
        },
      ];
    }
  }
  // No discriminator sent: the branches meant are those that accept every property sent.
  const accepting = all.filter(
    (errs) => !errs.some((e) => e.keyword === 'additionalProperties' && e.instancePath === objectPath),
  );
  if (accepting.length === 1) return accepting[0];
  const candidates = accepting.length > 0 ? accepting : all;
  // Missing in every such branch: keep those required errors, once.
  const missing = candidates.map((errs) => missingProperties(errs, objectPath));
  const everywhere = [...missing[0]!].filter((name) => missing.every((m) => m.has(name)));
  if (everywhere.length > 0)
    return candidates[0]!.filter(
      (e) =>
        e.keyword === 'required' &&
        e.instancePath === objectPath &&
        everywhere.includes(String((e.params as { missingProperty?: string }).missingProperty)),
    );
  if (candidates.length < all.length) return dedupe(candidates.flat());
  return undefined;
}

function dedupe(errs: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
    const keep = narrow(summary, branches);
    if (!keep) continue;
    const kept = new Set(keep);
    out = out
      .filter((e) => e !== summary && (!e.schemaPath.startsWith(prefix) || kept.has(e)))
      .concat(keep.filter((e) => !out.includes(e)));
  }
  return out;
}
