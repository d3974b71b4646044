import { expect, test } from '@playwright/test';
import { login, logout, newEmail, PASSWORD, register, setSettings } from './fixtures.ts';

test('a new operator registers, lands on the dashboard, and logs out', async ({ page }) => {
  const email = await register(page);
  const nav = page.getByRole('navigation');
  await expect(nav.getByText(email)).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await logout(page);
  await expect(page.getByRole('status').filter({ hasText: 'Logged Out !!' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav.getByText(email)).toHaveCount(0);
});

test('a wrong password shows a red message and stays on the login page', async ({ page }) => {
  const email = await register(page);
  await logout(page);
  await login(page, email, 'not the right password');
  const alert = page.getByRole('alert').filter({ hasText: 'Invalid email or password' });
  await expect(alert).toBeVisible();
  await expect(alert).toHaveClass(/alert-danger/);
  await expect(page).toHaveURL(/\/login$/);
  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('status').filter({ hasText: 'Logged in Success !!' })).toBeVisible();
});

test('a signed-out visitor of a guarded route is sent to the login page', async ({ page }) => {
  for (const path of ['/dashboard', '/', '/settings', '/client/add', '/clients']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
});

test('the forms check each field before anything is sent', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByText(/8 to 128 characters/)).toBeVisible();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test('a common password is refused by the server and the form keeps what was typed', async ({
  page,
}) => {
  await page.goto('/register');
  const email = newEmail();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('password123');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /most common passwords/ })).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
});

test('turning registrations off removes Register and closes /register', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Register' })).toBeVisible();
  const email = await register(page);
  await setSettings(page, { 'Allow Registration': false });
  try {
    await logout(page);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Register' })).toHaveCount(
      0,
    );
    await page.goto('/register');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Register' })).toHaveCount(
      0,
    );
  } finally {
    // Registrations back on for the tests that follow.
    await login(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await setSettings(page, { 'Allow Registration': true });
  }
});

test('an unknown path shows a real not-found page with a way back', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('not-found works!')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
