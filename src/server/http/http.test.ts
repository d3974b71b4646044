import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  GOOD_PASSWORD,
  signUp,
  startTestApp,
  type TestApp,
  testConfig,
  uniqueEmail,
} from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  const config = testConfig();
  const webDistDir = path.join(config.dataDir, 'web');
  mkdirSync(path.join(webDistDir, 'assets'), { recursive: true });
  writeFileSync(path.join(webDistDir, 'index.html'), '<!doctype html><title>Client Panel</title>');
  writeFileSync(path.join(webDistDir, 'assets', 'app-123.js'), 'console.log(1)');
  t = await startTestApp({ ...config, webDistDir });
});
afterAll(async () => {
  await t.close();
});

describe('health', () => {
  test('reports ok and the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', db: 'sqlite' });
  });
});

describe('app integrity', () => {
  test('a state-changing request from another origin is refused with 403', async () => {
    const { cookie } = await signUp(t.app);
    const requests = [
      {
        method: 'PUT' as const,
        url: '/api/settings',
        payload: {
          allowRegistrations: false,
          disableBalanceOnAdd: true,
          disableBalanceOnEdit: true,
        },
      },
      {
        method: 'POST' as const,
        url: '/api/auth/sign-up/email',
        payload: { email: uniqueEmail(), password: GOOD_PASSWORD },
      },
      { method: 'POST' as const, url: '/api/auth/sign-out', payload: {} },
    ];
    for (const request of requests) {
      const response = await t.app.inject({
        ...request,
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json().message).toBe('Requests from another site are refused');
    }
    const settings = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json().allowRegistrations).toBe(true);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.json()).not.toBeNull();
  });

  test('the same request from the public origin or loopback is accepted', async () => {
    const { cookie } = await signUp(t.app);
    for (const origin of t.config.acceptedOrigins) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie, origin },
        payload: {
          allowRegistrations: true,
          disableBalanceOnAdd: true,
          disableBalanceOnEdit: true,
        },
      });
      expect(response.statusCode, origin).toBe(200);
    }
  });

  test('a request body over 64 KiB is refused with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(70 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'Request body is too large (at most 64 KiB)' });
  });

  test('malformed JSON gets a clear 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The request body is not valid JSON');
  });

  test('security headers: CSP with no inline script and no framing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/dashboard' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('routing', () => {
  test('an unknown /api path is a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json().message).toMatch(/No API route/);
  });

  test('client routes fall back to index.html so a reload works', async () => {
    for (const url of [
      '/',
      '/dashboard',
      '/client/abc',
      '/client/edit/abc',
      '/some/unknown/page',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Client Panel</title>');
    }
  });

  test('built assets are served with a long cache lifetime', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });
});

describe('logs', () => {
  test('logs never contain passwords or cookies', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const logged = await startTestApp({ logLevel: 'trace' }, { logStream: stream });
    const app = logged.app;
    try {
      const password = 'a very secret passphrase 42';
      const { cookie } = await signUp(app, uniqueEmail(), password);
      await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: 'x@example.com', password },
      });
      await app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
      const log = lines.join('');
      expect(log.length).toBeGreaterThan(0);
      expect(log).not.toContain(password);
      expect(log).not.toContain(cookie.split('=')[1] ?? 'never');
    } finally {
      await logged.close();
    }
  });
});
