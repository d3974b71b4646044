// npm run bench:web: the panel in Chromium (Debian's) on loopback with 100,000 clients — time
// to a usable dashboard, from a keystroke in the search box to the updated rows, and from a
// header click to the re-sorted rows; 20 tries each, p50 and p95, as is and throttled like a
// slow phone (Lighthouse's "slow 4G": 150 ms, 1.6 Mbit/s down, and a CPU 4 times slower).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { seedSqlite } from './seed-data.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const TRIES = Number(process.env.BENCH_TRIES ?? 20);
const PORT = 3295;
const ORIGIN = `http://localhost:${PORT}`;
const SERVER_ENTRY = path.join('dist', 'server', 'server', 'index.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The search box waits this long after the last keystroke (search-box.tsx). */
const DEBOUNCE_MS = 150;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start');
}

interface Throttle {
  name: string;
  apply(page: Page, context: BrowserContext): Promise<void>;
}

const throttles: Throttle[] = [
  { name: 'as is', apply: async () => {} },
  {
    name: 'slow phone',
    async apply(page, context) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    },
  },
];

/** A fresh browser context (no cache), signed in, throttled. */
async function openPage(browser: Browser, cookie: string, throttle: Throttle) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name = '', value = ''] = cookie.split('=');
  await context.addCookies([{ name, value, url: ORIGIN }]);
  const page = await context.newPage();
  await throttle.apply(page, context);
  return { context, page };
}

const firstRow = (page: Page) =>
  page.getByRole('table', { name: 'Clients' }).getByRole('row').nth(1);

async function measure(browser: Browser, cookie: string, throttle: Throttle) {
  const dashboard: number[] = [];
  const search: number[] = [];
  const sort: number[] = [];
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const { context, page } = await openPage(browser, cookie, throttle);
    // Navigation to a usable dashboard: the first row of clients on screen.
    let started = performance.now();
    await page.goto(`${ORIGIN}/dashboard`);
    await firstRow(page).waitFor();
    dashboard.push(performance.now() - started);

    // A keystroke completing a search, to the rows of its result: the range line
    // ("1–50 of …") changes once the new rows are on screen.
    const box = page.getByRole('searchbox', { name: 'Search clients' });
    const range = page.getByText(/^\d[\d,]*–[\d,]+ of [\d,]+$/);
    const rangeChanged = (previous: string) =>
      page.waitForFunction(
        (text) => ![...document.querySelectorAll('nav span')].some((e) => e.textContent === text),
        previous,
      );
    let shown = await range.innerText();
    await box.fill('sharma');
    await rangeChanged(shown);
    shown = await range.innerText();
    started = performance.now();
    await box.press(String(attempt % 10));
    await rangeChanged(shown);
    search.push(performance.now() - started);
    shown = await range.innerText();
    await box.fill('');
    await rangeChanged(shown);

    // A header click to the rows in the new order.
    const before = await firstRow(page).innerText();
    started = performance.now();
    await page
      .getByRole('columnheader', { name: /Balance/ })
      .getByRole('button')
      .click();
    await page.waitForFunction(
      (previous) =>
        document.querySelector('table[aria-label="Clients"] tbody tr')?.textContent !== previous,
      before.replaceAll('\t', ''),
    );
    sort.push(performance.now() - started);
    await context.close();
  }
  return { dashboard, search, sort };
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`,
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-web-bench-'));
  const file = path.join(dir, 'bench.db');
  const server: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: file,
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    await waitForHealth();
    const signUp = await fetch(`http://127.0.0.1:${PORT}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'web@example.com', password: 'web bench passphrase' }),
    });
    const cookie = (signUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const ownerId = ((await signUp.json()) as { user: { id: string } }).user.id;
    seedSqlite(file, ownerId, CLIENTS);

    console.log(
      `\n${CLIENTS.toLocaleString('en')} clients, ${TRIES} tries each, a fresh browser context per try\n`,
    );
    console.log('| measure | conditions | p50 ms | p95 ms |');
    console.log('|---|---|---:|---:|');
    for (const throttle of throttles) {
      const figures = await measure(browser, cookie, throttle);
      const row = (name: string, values: number[]) =>
        console.log(
          `| ${name} | ${throttle.name} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} |`,
        );
      row('navigation to a usable dashboard', figures.dashboard);
      row(`keystroke to updated rows (incl. the ${DEBOUNCE_MS} ms pause)`, figures.search);
      row(
        'keystroke to updated rows, after the pause',
        figures.search.map((ms) => ms - DEBOUNCE_MS),
      );
      row('header click to re-sorted rows', figures.sort);
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
