import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  expect,
  type Page,
} from '@playwright/test';
import { freePort } from '../../bench/server-process.ts';

export { expect };

export interface ConsoleErrors {
  /** Console errors matching this are expected (a refusal the test provokes on purpose). */
  allow(pattern: RegExp): void;
}

/**
 * Every test fails on any console error or uncaught exception in any of its pages (a CSP
 * violation, a failed request, a React warning), checked after the test body: pages of
 * contexts the test opens itself are watched too.
 */
/** The panel's settings as the API names them. */
export interface PanelSettings {
  allowRegistrations: boolean;
  disableBalanceOnAdd: boolean;
  disableBalanceOnEdit: boolean;
}

/** A new panel's settings (migration 0001). */
export const DEFAULT_SETTINGS: PanelSettings = {
  allowRegistrations: true,
  disableBalanceOnAdd: true,
  disableBalanceOnEdit: true,
};

/** A panel of its own: a production server on a free port, with its own data directory. */
export interface Panel {
  url: string;
  /** The administrator's session cookie ("name=value"), when the panel was made with one. */
  adminCookie: string;
  stop(): Promise<void>;
}

async function untilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the panel stopped: ${output()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the panel did not start within 60 s: ${output()}`);
}

/** The session cookie pair a sign-up or sign-in answer set. */
function sessionCookieOf(response: Response): string {
  const found = response.headers.getSetCookie().find((c) => c.includes('session_token='));
  if (!found) throw new Error(`no session cookie in answer ${response.status}`);
  return found.split(';')[0] ?? '';
}

/**
 * Starts the production build (`node dist/server/server/index.js`) on a free port with a data
 * directory of its own; unless `withAdmin` is false, registers ADMIN through the API first,
 * so that it is the panel's administrator. `env` is added to its environment (a preload that
 * moves its clock, say).
 */
export async function startPanel({
  withAdmin = true,
  env = {},
}: {
  withAdmin?: boolean;
  env?: Record<string, string>;
} = {}): Promise<Panel> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'client-panel-e2e-'));
  const child = spawn(process.execPath, ['dist/server/server/index.js'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: path.join(dataDir, 'client-panel.db'),
      LOG_LEVEL: 'warn',
      // Every test registers its own operators, all from this one address.
      SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000',
      ...env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await untilHealthy(url, child, () => stderr);
    let adminCookie = '';
    if (withAdmin) {
      const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
      });
      if (!signUp.ok) throw new Error(`admin sign-up: ${signUp.status} ${await signUp.text()}`);
      adminCookie = sessionCookieOf(signUp);
    }
    return { url, adminCookie, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

type SettingLabel = 'Allow Registration' | 'Disable Balance On Add' | 'Disable Balance On Edit';

const SETTING_FIELDS: Record<SettingLabel, keyof PanelSettings> = {
  'Allow Registration': 'allowRegistrations',
  'Disable Balance On Add': 'disableBalanceOnAdd',
  'Disable Balance On Edit': 'disableBalanceOnEdit',
};

/** Signs ADMIN in through the API: its session cookie. */
async function signInAdmin(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (!response.ok) throw new Error(`admin sign-in: ${response.status} ${await response.text()}`);
  return sessionCookieOf(response);
}

/**
 * Puts the panel's settings through the API as its administrator; throws unless 200. A test
 * may have ended the administrator's sessions (signing everyone out, say): then it signs in
 * again once.
 */
async function putSettings(panel: Panel, settings: PanelSettings): Promise<void> {
  const put = () =>
    fetch(`${panel.url}/api/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: panel.adminCookie },
      body: JSON.stringify(settings),
    });
  let response = await put();
  if (response.status === 401) {
    panel.adminCookie = await signInAdmin(panel.url);
    response = await put();
  }
  if (response.status !== 200) {
    throw new Error(`settings: ${response.status} ${await response.text()}`);
  }
}

/** Changes some of the panel's settings, by their labels on the settings page, through the API. */
export async function setSettings(
  panel: Panel,
  changes: Partial<Record<SettingLabel, boolean>>,
): Promise<void> {
  const current = (await (await fetch(`${panel.url}/api/settings`)).json()) as PanelSettings;
  const next = { ...current };
  for (const [label, value] of Object.entries(changes)) {
    next[SETTING_FIELDS[label as SettingLabel]] = value;
  }
  await putSettings(panel, next);
}

/**
 * Each worker runs its tests, one at a time, against a panel of its own (so that specs run in
 * any order and in parallel); before each test the panel's settings are the defaults with the
 * test's `panelSettings` on top, whatever the test before it changed.
 */
export const test = base.extend<
  {
    consoleErrors: ConsoleErrors;
    panelSettings: Partial<PanelSettings>;
    settingsAsDeclared: undefined;
  },
  { panel: Panel }
>({
  panel: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture uses from this parameter.
    async ({}, use) => {
      const panel = await startPanel();
      await use(panel);
      await panel.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ panel }, use) => {
    await use(panel.url);
  },
  panelSettings: [{}, { option: true }],
  settingsAsDeclared: [
    async ({ panel, panelSettings }, use) => {
      await putSettings(panel, { ...DEFAULT_SETTINGS, ...panelSettings });
      await use(undefined);
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ browser, context }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      const watchPage = (page: Page) => {
        page.on('console', (message) => {
          const text = message.text();
          if (message.type() === 'error' && !allowed.some((pattern) => pattern.test(text))) {
            errors.push(`${page.url()}: ${text}`);
          }
        });
        page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
      };
      const watchContext = (watched: BrowserContext) => {
        for (const page of watched.pages()) watchPage(page);
        watched.on('page', watchPage);
      };
      watchContext(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options?: BrowserContextOptions) => {
        const created = await newContext(options);
        watchContext(created);
        return created;
      };
      await use({ allow: (pattern) => allowed.push(pattern) });
      browser.newContext = newContext;
      expect(errors, 'console errors in the pages of this test').toEqual([]);
    },
    { auto: true },
  ],
});

export const PASSWORD = 'a long enough passphrase';

let counter = 0;
export function newEmail(prefix = 'operator'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

/**
 * A new operator, registered through the API (the sign-up form has its own tests:
 * registerThroughForm), signed in in the page's browser context and on the dashboard.
 */
export async function register(page: Page, email = newEmail()): Promise<string> {
  const response = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password: PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
  return email;
}

/** A new operator, registered through the form as a person does it. */
export async function registerThroughForm(page: Page, email = newEmail()): Promise<string> {
  await page.goto('/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'You are now registered and logged in' }),
  ).toBeVisible();
  return email;
}

export async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

export async function logout(page: Page): Promise<void> {
  // The page goes to /login before the server has ended the session: wait for that too, or
  // the next navigation may cancel the sign-out and leave the session signed in.
  const signedOut = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/auth/sign-out') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await signedOut).ok()).toBe(true);
}

/** The first account of every panel startPanel makes, and so its administrator. */
export const ADMIN = { email: 'admin@example.com', password: 'the administrator passphrase' };

/** Changes settings on the settings page of a page signed in as the administrator. */
export async function changeSettingsOnPage(
  page: Page,
  settings: Partial<Record<SettingLabel, boolean>>,
): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Settings' })).toBeVisible();
  for (const [label, checked] of Object.entries(settings)) {
    await page.getByLabel(label).setChecked(checked);
  }
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
}
