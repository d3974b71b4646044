import { expect, type Page } from '@playwright/test';

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

export async function setSettings(
  page: Page,
  settings: Partial<
    Record<'Allow Registration' | 'Disable Balance On Add' | 'Disable Balance On Edit', boolean>
  >,
): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Settings' })).toBeVisible();
  for (const [label, checked] of Object.entries(settings)) {
    await page.getByLabel(label).setChecked(checked);
  }
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
}
