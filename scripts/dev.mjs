// `npm run dev`: the server from source, restarting when its code changes (node --watch), and
// Vite's dev server with hot reload, whose proxy sends /api (and the live socket) to it. The
// server is told Vite's origin (DEV_WEB_ORIGIN), the one the browser names on every write, and
// Vite starts once the server answers. Each line of output is prefixed with where it came from;
// Ctrl-C stops both, and when one stops by itself the other is stopped too. `npm run dev:server`
// and `npm run dev:web` run one.
//
// PORT (3000) is the server's port, DEV_WEB_PORT (5173) Vite's; Vite refuses to start rather
// than move to another port, since the server accepts only the origin it was given.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const parts = process.argv[2] ? [process.argv[2]] : ['server', 'web'];
if (parts.some((part) => part !== 'server' && part !== 'web')) {
  console.error(`Usage: node scripts/dev.mjs [server|web] (got "${process.argv[2]}")`);
  process.exit(2);
}
const serverPort = process.env.PORT?.trim() || '3000';
const webPort = process.env.DEV_WEB_PORT?.trim() || '5173';
const webOrigin = `http://localhost:${webPort}`;
const atTerminal = process.stdout.isTTY === true;
// Piped output is no terminal to the children: keep their colours and readable log lines.
const shared = { ...process.env, ...(atTerminal ? { FORCE_COLOR: '1' } : {}) };

const commands = {
  server: {
    args: ['--import', 'tsx', '--watch', path.join('src', 'server', 'index.ts')],
    env: {
      ...shared,
      PORT: serverPort,
      DEV_WEB_ORIGIN: webOrigin,
      LOG_FORMAT: process.env.LOG_FORMAT ?? (atTerminal ? 'pretty' : 'json'),
    },
    // Vite's keyboard shortcuts read the terminal; the server does not.
    stdin: 'ignore',
  },
  web: {
    args: [
      path.join(
        path.dirname(fileURLToPath(import.meta.resolve('vite/package.json'))),
        'bin',
        'vite.js',
      ),
      '--port',
      webPort,
      '--strictPort',
    ],
    // vite.config.ts reads PORT for its proxy's target.
    env: { ...shared, PORT: serverPort },
    stdin: 'inherit',
  },
};

const width = Math.max(...parts.map((part) => part.length));
const children = new Map();
let stopping = false;
let exitCode = 0;

function relay(stream, out, prefix) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => {
    if (pending) out.write(`${prefix}${pending}\n`);
  });
}

function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
}

function start(part) {
  const { args, env, stdin } = commands[part];
  const child = spawn(process.execPath, args, { env, stdio: [stdin, 'pipe', 'pipe'] });
  const prefix = `[${part}]${' '.repeat(width - part.length)} `;
  relay(child.stdout, process.stdout, prefix);
  relay(child.stderr, process.stderr, prefix);
  children.set(part, child);
  child.on('exit', (code, signal) => {
    children.delete(part);
    if (!stopping) {
      console.error(`${prefix}stopped (${signal ?? `exit code ${code}`}); stopping the rest`);
      exitCode = code || 1;
      stopAll();
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

/**
 * Until the server answers (or a minute has passed: it may be waiting for a fix to its code),
 * so that a page Vite serves finds the API there rather than the proxy's errors.
 */
async function serverAnswers() {
  const deadline = Date.now() + 60_000;
  while (!stopping && Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${serverPort}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stopAll);
if (parts.includes('server')) start('server');
if (parts.includes('web')) {
  if (parts.includes('server')) await serverAnswers();
  if (!stopping) {
    start('web');
    console.log(
      `Open ${webOrigin}: the web app with hot reload, /api proxied to port ${serverPort}.`,
    );
  }
}
