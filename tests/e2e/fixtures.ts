import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  expect,
  type Page,
} from '@playwright/test';

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
export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
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
  return `${prefix}-${Date.now()}-${counter}@example.com`;
}

export async function register(page: Page, email = newEmail()): Promise<string> {
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
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The panel's first account, registered by admin.setup.ts before every other test. */
export const ADMIN = { email: 'admin@example.com', password: 'the administrator passphrase' };

type SettingLabel = 'Allow Registration' | 'Disable Balance On Add' | 'Disable Balance On Edit';

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

/** The administrator's signed-in cookies, kept so that tests do not sign in again and again. */
let administratorState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

/**
 * Only the administrator changes the panel's settings: this opens a browser context of its
 * own as the administrator (signing in the first time; the sign-in limit per e-mail would
 * refuse one sign-in per call), changes them on the settings page, and closes it.
 */
export async function setSettings(
  browser: Browser,
  settings: Partial<Record<SettingLabel, boolean>>,
): Promise<void> {
  const context = await browser.newContext(
    administratorState ? { storageState: administratorState } : {},
  );
  try {
    const page = await context.newPage();
    await page.goto('/dashboard');
    // Signed in, the list; signed out (the first time), the sign-in page it redirects to.
    await expect(page.getByRole('heading', { name: /^(Clients|Login)$/ })).toBeVisible();
    if (page.url().endsWith('/login')) {
      await login(page, ADMIN.email, ADMIN.password);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    administratorState = await context.storageState();
    await changeSettingsOnPage(page, settings);
  } finally {
    await context.close();
  }
}
