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

test('anyone can read the settings, which start as the defaults', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/settings' });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual(DEFAULT_SETTINGS);
});

test('a signed-out visitor cannot change the settings', async () => {
  const response = await t.app.inject({ method: 'PUT', url: '/api/settings', payload: allOff });
  expect(response.statusCode).toBe(401);
  expect(response.json().message).toBe('Sign in to continue');
  const after = await t.app.inject({ method: 'GET', url: '/api/settings' });
  expect(after.json()).toEqual(DEFAULT_SETTINGS);
});

test('an operator saves the settings and everyone reads them back', async () => {
  const { cookie } = await signUp(t.app);
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie },
    payload: allOff,
  });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual(allOff);
  const read = await t.app.inject({ method: 'GET', url: '/api/settings' });
  expect(read.json()).toEqual(allOff);
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie },
    payload: DEFAULT_SETTINGS,
  });
});

test('a bad settings body is refused with 400 and changes nothing', async () => {
  const { cookie } = await signUp(t.app);
  const bodies = [
    { ...DEFAULT_SETTINGS, allowRegistrations: 'no' },
    { allowRegistrations: false },
    { ...DEFAULT_SETTINGS, admin: true },
  ];
  for (const payload of bodies) {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload,
    });
    expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    expect(response.json().message).toBeTruthy();
  }
  const missing = await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie },
    payload: { allowRegistrations: false },
  });
  expect(missing.json().fieldErrors).toHaveProperty('disableBalanceOnAdd');
  const read = await t.app.inject({ method: 'GET', url: '/api/settings' });
  expect(read.json()).toEqual(DEFAULT_SETTINGS);
});
