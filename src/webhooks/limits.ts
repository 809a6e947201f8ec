// A bound on concurrent work per key (a receiver's origin): acquire() waits for a free place,
// release() gives it to the next in line. Keys without work are forgotten.
class Gate {
  active = 0;
  readonly waiting: (() => void)[] = [];
}

export class Limits {
  private readonly gates = new Map<string, Gate>();

  constructor(private readonly perKey: number) {}

  of(key: string): { acquire(): Promise<void>; release(): void } {
    return { acquire: () => this.acquire(key), release: () => this.release(key) };
  }

  private acquire(key: string): Promise<void> {
    let gate = this.gates.get(key);
    if (!gate) this.gates.set(key, (gate = new Gate()));
    if (gate.active < this.perKey) {
      gate.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => gate.waiting.push(resolve));
  }

  private release(key: string): void {
    const gate = this.gates.get(key);
    if (!gate) return;
    const next = gate.waiting.shift();
    // The place passes to the next in line as it is.
    if (next) return next();
    gate.active--;
    if (gate.active === 0) this.gates.delete(key);
  }
}
