import { ADMIN, expect, test } from './fixtures.ts';

test('the first account of a new panel becomes its administrator', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole('navigation');
  await expect(nav.getByText(ADMIN.email)).toBeVisible();
  await expect(nav.getByText('Administrator')).toBeVisible();
});
