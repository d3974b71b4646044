import {
  ADMIN,
  changeSettingsOnPage,
  expect,
  login,
  logout,
  newEmail,
  PASSWORD,
  register,
  registerThroughForm,
  startPanel,
  test,
} from './fixtures.ts';

test('the first account of a new panel becomes its administrator', async ({ page }) => {
  const fresh = await startPanel({ withAdmin: false });
  try {
    await page.goto(`${fresh.url}/register`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const nav = page.getByRole('navigation');
    await expect(nav.getByText(ADMIN.email)).toBeVisible();
    await expect(nav.getByText('Administrator')).toBeVisible();
  } finally {
    await page.close();
    await fresh.stop();
  }
});

test('a new operator registers, lands on the dashboard, and logs out', async ({ page }) => {
  const email = await registerThroughForm(page);
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

test('logging out and at once going to another address still signs out', async ({ page }) => {
  await register(page);
  // The list's answer is held back: the sign-out waits for it, unless the page is left first.
  await page.route(/\/api\/clients(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    await route.continue().catch(() => {});
  });
  await page.reload();
  await page.getByRole('button', { name: 'Logout' }).click();
  // The new page may ask who is signed in before the server has read the sign-out.
  await expect(async () => {
    await page.goto('/login');
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a wrong password shows a red message and stays on the login page', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 401/);
  const email = await register(page);
  await logout(page);
  await login(page, email, 'not the right password');
  const refusal = page.getByRole('alert').getByText('Invalid email or password');
  await expect(refusal).toBeVisible();
  await expect(refusal).toHaveClass(/alert-danger/);
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
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 400/);
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
  await login(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await changeSettingsOnPage(page, { 'Allow Registration': false });
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
    await login(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await changeSettingsOnPage(page, { 'Allow Registration': true });
  }
});

test('an operator sees the settings read-only until the administrator makes them one', async ({
  browser,
  page,
}) => {
  const email = await register(page);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByText(/Only an administrator can change them/)).toBeVisible();
  await expect(page.getByLabel('Allow Registration')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await login(admin, ADMIN.email, ADMIN.password);
  await admin.getByRole('link', { name: 'Settings' }).click();
  const operators = admin.getByRole('table', { name: 'Operators' });
  await operators.getByRole('button', { name: `Make ${email} an administrator` }).click();
  await expect(
    admin.getByRole('status').filter({ hasText: 'is now an administrator' }),
  ).toBeVisible();
  await adminContext.close();

  // The new administrator's open page follows live: the badge, then the settings form.
  await expect(page.getByRole('navigation').getByText('Administrator')).toBeVisible();
  await expect(page.getByLabel('Allow Registration')).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
});

test('an unknown path shows a real not-found page with a way back', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 404/);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  // The whole page says what happened and offers a way back: no placeholder text.
  await expect(page.getByRole('main')).toHaveText(
    'Page not foundThere is no page at this address.Go to the dashboard',
  );
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('every password field is masked, named for password managers, and takes a pasted password', async ({
  page,
  context,
}) => {
  const email = await register(page);
  const fieldsOn = async (path: string) => {
    await page.goto(path);
    await expect(page.locator('input').first()).toBeVisible();
    const fields = page.locator('input[autocomplete$="-password"], input[type="password"]');
    const count = await fields.count();
    expect(count, path).toBeGreaterThan(0);
    for (let i = 0; i < count; i += 1) {
      await expect(fields.nth(i)).toHaveAttribute('type', 'password');
      await expect(fields.nth(i)).toHaveAttribute('autocomplete', /^(current|new)-password$/);
    }
    return count;
  };
  // The account panel: the current password for each change, the new one twice.
  expect(await fieldsOn('/settings')).toBeGreaterThanOrEqual(3);
  await logout(page);
  await fieldsOn('/register');
  await fieldsOn('/login');

  // A password manager or the clipboard: what is pasted is what is sent.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((text) => navigator.clipboard.writeText(text), PASSWORD);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').focus();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(page.getByLabel('Password')).toHaveValue(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
