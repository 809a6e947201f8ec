// The directory of Pix participants (GET /api/v1/psp): src/lib/psp.ts filtered as the public
// reference filters it, by ISPB, COMPE code and a part of the name.
import { allParticipants, type Participant } from '../lib/psp';

export interface PspFilter {
  ispb?: string;
  name?: string;
  compe?: string;
}

export interface PspView {
  name: string;
  ispb: string;
  code: string;
  compe: string | null;
}

// Lower case without accents, so "itau" finds "ITAÚ UNIBANCO S.A.".
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

// A numeric ISPB or COMPE code may be given without its leading zeros ("3030310").
function padded(value: string, length: number): string {
  return /^[0-9]+$/.test(value) ? value.padStart(length, '0') : value.toUpperCase();
}

function matches(p: Participant, filter: PspFilter): boolean {
  if (filter.ispb !== undefined && p.ispb !== padded(filter.ispb.trim(), 8)) return false;
  if (filter.compe !== undefined && p.compe !== padded(filter.compe.trim(), 3)) return false;
  if (filter.name !== undefined) {
    const part = folded(filter.name.trim());
    if (!folded(p.name).includes(part) && !folded(p.longName).includes(part)) return false;
  }
  return true;
}

export class DirectoryService {
  // Pix participants only (the register also lists institutions outside the Pix).
  psps(filter: PspFilter): PspView[] {
    return allParticipants()
      .filter((p) => p.pix !== null && matches(p, filter))
      .map((p) => ({ name: p.name, ispb: p.ispb, code: p.ispb, compe: p.compe }));
  }
}
