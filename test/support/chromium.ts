// Debian's Chromium for the browser tests, launched as the project's guide asks (headless, no
// background networking: this machine's network is closed). Where it is absent the tests that
// need it are skipped by name with the reason (make test's test-tools step installs it as root).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { runsOnlyIf } from './skip';

const CHROMIUM = '/usr/bin/chromium';

export const hasChromium = existsSync(CHROMIUM);

export const inChromium = runsOnlyIf(
  hasChromium,
  `needs Debian's Chromium at ${CHROMIUM} (make test's test-tools step runs apt-get install -y chromium as root)`,
);

// The browser, or undefined where Chromium is absent (the tests using it are then skipped).
export async function launchChromium(): Promise<Browser | undefined> {
  if (!hasChromium) return undefined;
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
