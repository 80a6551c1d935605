// Chromium and chromedriver (the browser and e2e suites): where they are, and
// their Debian packages when missing.
import fs from 'node:fs';

import { aptInstall } from './apt.mjs';
import { SetupError, output, say, which } from './run.mjs';

const CHROMIUM_FIX = 'sudo apt-get update && sudo apt-get install -y chromium chromium-driver';

/** [chromium, chromedriver] paths the test suites use, null where missing. */
export function browserPaths() {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const driver = process.env.CHROMEDRIVER || which('chromedriver');
  return [fs.existsSync(chromium) ? chromium : null, driver && fs.existsSync(driver) ? driver : null];
}

export function ensureBrowser() {
  const [chromium, driver] = browserPaths();
  if (chromium && driver) {
    const v = output(driver, ['--version'])?.split(' (')[0] ?? 'chromedriver';
    say(`ok: ${chromium}, ${v} (${driver})`);
    return null;
  }
  const missing = [chromium ? null : 'chromium', driver ? null : 'chromedriver'].filter(Boolean).join(' and ');
  const overridden = process.env.CHROMIUM_PATH || process.env.CHROMEDRIVER;
  if (overridden) {
    throw new SetupError(`${missing} not found where CHROMIUM_PATH/CHROMEDRIVER point`, 'unset CHROMIUM_PATH CHROMEDRIVER');
  }
  if (!which('apt-get')) {
    throw new SetupError(
      `${missing} missing, and this is not a Debian-like system (no apt-get) where the tests could install them. ` +
        'Install Chromium and its chromedriver with the system package manager, then set CHROMIUM_PATH and CHROMEDRIVER if they are not /usr/bin/chromium and on PATH',
      'CHROMIUM_PATH=/path/to/chromium CHROMEDRIVER=/path/to/chromedriver npm test',
    );
  }
  const took = aptInstall(
    'chromium and chromium-driver (Debian packages)',
    ['chromium', 'chromium-driver'],
    'about 30 s: downloads about 165 MB',
    `${missing} missing: the browser tests need them`,
    CHROMIUM_FIX,
  );
  const [c2, d2] = browserPaths();
  if (!c2 || !d2) throw new SetupError(`apt-get installed the packages but ${c2 ? 'chromedriver' : '/usr/bin/chromium'} is still missing`, CHROMIUM_FIX);
  return took;
}
