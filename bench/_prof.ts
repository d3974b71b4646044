import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const dir = mkdtempSync(path.join(tmpdir(), 'prof-'));
const file = path.join(dir, 'p.db');
const ORIGIN = 'http://localhost:3295';
const mode = process.argv[2] ?? 'list';
const server = spawn(
  process.execPath,
  ['--cpu-prof', '--cpu-prof-dir=/tmp/prof/out', '--import', 'tsx', 'src/server/index.ts'],
  {
    env: {
      ...process.env,
      PORT: '3295',
      DATABASE_URL: file,
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: process.env.LL ?? 'info',
    },
    stdio: 'ignore',
  },
);
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch('http://127.0.0.1:3295/api/health')).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 100));
}
const su = await fetch('http://127.0.0.1:3295/api/auth/sign-up/email', {
  method: 'POST',
  headers: { origin: ORIGIN, 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'p@example.com', password: 'bench passphrase 2026' }),
});
const cookie = (su.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
const opts: autocannon.Options =
  mode === 'list'
    ? { url: 'http://127.0.0.1:3295/api/clients?limit=100', headers: { cookie } }
    : {
        url: 'http://127.0.0.1:3295/api/clients',
        method: 'POST',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({
          fname: 'Bench',
          lname: 'Create',
          email: 'b@example.com',
          phone: '9000000001',
          balance: '1',
        }),
      };
if (mode === 'list') {
  for (let i = 0; i < 300; i++)
    await fetch('http://127.0.0.1:3295/api/clients', {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({
        fname: 'Bench',
        lname: 'Create' + i,
        email: 'b@example.com',
        phone: '9000000001',
        balance: '1',
      }),
    });
}
const r = await autocannon({ connections: 10, duration: 6, ...opts });
console.log(mode, r.requests.average, r.latency.p50, r.latency.p99, r.non2xx);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
