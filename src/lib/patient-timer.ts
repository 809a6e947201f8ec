// A timeout for waiting on the network that does not count time this process could not
// listen. Node runs expired timers before it reads the sockets: after the event loop was
// blocked (the server compiles its request validators at start while it connects to the
// database, for seconds on a busy machine, in several blocks), a plain timeout fires although
// the answer is already waiting unread. This one, when it fires late, gives the wait another
// full period instead (a few times at most), so a connection is given up only for silence
// while the process was listening.

// Later than this: the loop was blocked, not the network silent.
const LATE_MS = 200;
const MAX_EXTRA_PERIODS = 5;

export interface PatientTimer {
  clear(): void;
}

export function patientTimeout(onTimeout: () => void, ms: number): PatientTimer {
  let timer: NodeJS.Timeout;
  const arm = (periods: number) => {
    const due = Date.now() + ms;
    timer = setTimeout(() => {
      if (periods > 0 && Date.now() - due > LATE_MS) arm(periods - 1);
      else onTimeout();
    }, ms);
  };
  // A process blocked again and again still gives up, after MAX_EXTRA_PERIODS more.
  arm(MAX_EXTRA_PERIODS);
  return { clear: () => clearTimeout(timer) };
}
