// The requests this process is still answering. A stop waits for them, not only for their
// connections: a client that leaves (a load tool stopping, a proxy's timeout) closes its
// connection while its request runs on, and the HTTP server's close then reports done before
// the handler has committed or written its request log entry.
export class InFlightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  begin(): void {
    this.count++;
  }

  end(): void {
    this.count--;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const ok of waiters) ok();
  }

  // Resolves true once none is in flight, or false after `waitMs` with some still running.
  settled(waitMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, waitMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }
}
