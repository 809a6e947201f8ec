// Pix participants (PSPs): this server as one, and the directory of the others.
//
// The directory is the `bancos-brasileiros` package (a maintained JSON list of Brazilian
// institutions, from the Central Bank's and the CIP's registers: ISPB, COMPE code, short and
// long names, how each takes part in Pix; public domain). It is read once, on first use, and
// only the fields used here are kept (the file's products, dates and URLs are dropped).
// ISPBs are strings: the Central Bank's 2.9.0 allows letters in them ([0-9A-Z]{8}).
import { createRequire } from 'node:module';

// This server as a Pix participant. The ISPB is a made-up one (the sandbox's), written into
// end-to-end ids, return ids and recurrence ids; ISPBs of the simulated outside world differ.
export const OWN_ISPB = '99999999';
export const OWN_PSP_NAME = 'pixgate sandbox PSP';

export interface Participant {
  ispb: string;
  // The three-digit COMPE (bank) code; null for institutions without one.
  compe: string | null;
  // The register's short name ("BCO DO BRASIL S.A."), as receipts and the SPI show it.
  name: string;
  longName: string;
  // How it takes part in Pix: DRCT (direct), IDRT (indirect); null: not a Pix participant.
  pix: 'DRCT' | 'IDRT' | null;
}

interface DirectoryEntry {
  ISPB: string;
  COMPE: string | null;
  ShortName: string;
  LongName: string;
  PixType: string | null;
}

const OWN: Participant = { ispb: OWN_ISPB, compe: null, name: OWN_PSP_NAME, longName: OWN_PSP_NAME, pix: 'DRCT' };

interface Directory {
  all: readonly Participant[];
  byIspb: ReadonlyMap<string, Participant>;
  byCompe: ReadonlyMap<string, Participant>;
}

let directory: Directory | undefined;

function load(): Directory {
  const raw = createRequire(import.meta.url)('bancos-brasileiros') as DirectoryEntry[];
  const all: Participant[] = [OWN];
  for (const e of raw) {
    if (typeof e.ISPB !== 'string' || e.ISPB === OWN_ISPB) continue;
    const compe = typeof e.COMPE === 'string' && /^[0-9]{3}$/.test(e.COMPE) ? e.COMPE : null;
    const pix = e.PixType === 'DRCT' || e.PixType === 'IDRT' ? e.PixType : null;
    all.push({ ispb: e.ISPB, compe, name: e.ShortName.trim(), longName: e.LongName.trim(), pix });
  }
  const byCompe = new Map<string, Participant>();
  for (const p of all) if (p.compe && !byCompe.has(p.compe)) byCompe.set(p.compe, p);
  return { all, byIspb: new Map(all.map((p) => [p.ispb, p])), byCompe };
}

function dir(): Directory {
  directory ??= load();
  return directory;
}

// Every institution of the directory, this server first.
export function allParticipants(): readonly Participant[] {
  return dir().all;
}

export function participantByIspb(ispb: string): Participant | undefined {
  return dir().byIspb.get(ispb);
}

export function participantByCompe(compe: string): Participant | undefined {
  return dir().byCompe.get(compe);
}

// The name an institution is shown under: the directory's, else its ISPB (never a made-up one).
export function institutionName(ispb: string): string {
  return participantByIspb(ispb)?.name ?? `ISPB ${ispb}`;
}
