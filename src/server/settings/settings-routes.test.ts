import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/settings-schema.ts';
import { signUp, startTestApp, type TestApp } from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const allOff = {
  allowRegistrations: false,
  disableBalanceOnAdd: false,
  disableBalanceOnEdit: false,
};

function put(cookie: string | undefined, payload: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });
}

async function readSettings() {
  return (await t.app.inject({ method: 'GET', url: '/api/settings' })).json();
}

test('anyone can read the settings, which start as the defaults', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/settings' });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual(DEFAULT_SETTINGS);
});

test('a signed-out visitor cannot change the settings', async () => {
  const response = await put(undefined, allOff);
  expect(response.statusCode).toBe(401);
  expect(response.json().message).toBe('Sign in to continue');
  expect(await readSettings()).toEqual(DEFAULT_SETTINGS);
});

test('an operator who is not an administrator cannot change the settings', async () => {
  const { cookie } = await signUp(t.app);
  const response = await put(cookie, allOff);
  expect(response.statusCode).toBe(403);
  expect(response.json().message).toBe('Only an administrator can do this');
  expect(await readSettings()).toEqual(DEFAULT_SETTINGS);
});

test('the administrator saves the settings and everyone reads them back', async () => {
  const saved = await put(t.admin.cookie, allOff);
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual(allOff);
  expect(await readSettings()).toEqual(allOff);
  await put(t.admin.cookie, DEFAULT_SETTINGS);
});

test('a bad settings body is refused with 400 and changes nothing', async () => {
  const bodies = [
    { ...DEFAULT_SETTINGS, allowRegistrations: 'no' },
    { allowRegistrations: false },
    { ...DEFAULT_SETTINGS, admin: true },
  ];
  for (const payload of bodies) {
    const response = await put(t.admin.cookie, payload);
    expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    expect(response.json().message).toBeTruthy();
  }
  const missing = await put(t.admin.cookie, { allowRegistrations: false });
  expect(missing.json().fieldErrors).toHaveProperty('disableBalanceOnAdd');
  expect(await readSettings()).toEqual(DEFAULT_SETTINGS);
});
