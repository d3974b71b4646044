// Two production instances on a scratch PostgreSQL database, behind nginx run with the
// repository's deploy/nginx.conf. Used by scale-out.spec.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePorts } from '../../bench/server-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_ENTRY = path.join(ROOT, 'dist/server/server/index.js');
export const NGINX_CONFIG = path.join(ROOT, 'deploy/nginx.conf');
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The cookie that pins a browser to one instance in the test's nginx (1 or 2). */
export const PIN_COOKIE = 'panel_instance';
/** A cookie naming the test page, so that nginx's access log says whose request it was. */
export const PAGE_COOKIE = 'panel_test_page';
/** The response header in which the test's nginx names the instance that answered. */
export const UPSTREAM_HEADER = 'x-panel-upstream';

/** Why the cluster cannot run here (no nginx, no PostgreSQL), or null when it can. */
export async function clusterUnavailable(): Promise<string | null> {
  if (!existsSync(NGINX_PATH)) {
    return `no nginx at ${NGINX_PATH} (apt-get install -y nginx, or set NGINX_PATH)`;
  }
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return `PostgreSQL at ${TEST_DATABASE_URL} does not answer (${(error as Error).message}); set TEST_DATABASE_URL`;
  } finally {
    await client.end().catch(() => {});
  }
  return null;
}

function replaceExactly(text: string, search: string, replacement: string, times: number): string {
  const found = text.split(search).length - 1;
  if (found !== times) {
    throw new Error(
      `deploy/nginx.conf changed: expected "${search}" ${times} time(s), found it ${found}; update renderSite in tests/e2e/nginx-cluster.ts`,
    );
  }
  return text.replaceAll(search, replacement);
}

/**
 * deploy/nginx.conf with only mechanical changes: nginx's port, the instances' ports, and
 * proxy_pass through $panel_upstream, which the test wrapper maps from the pin cookie.
 */
export function renderSite(
  production: string,
  { listenPort, ports }: { listenPort: number; ports: [number, number] },
): string {
  let site = replaceExactly(production, 'listen 80;', `listen 127.0.0.1:${listenPort};`, 1);
  site = replaceExactly(site, 'server 127.0.0.1:3001;', `server 127.0.0.1:${ports[0]};`, 1);
  site = replaceExactly(site, 'server 127.0.0.1:3002;', `server 127.0.0.1:${ports[1]};`, 1);
  const proxied = site.split('proxy_pass http://client_panel;').length - 1;
  if (proxied < 1)
    throw new Error('deploy/nginx.conf changed: no "proxy_pass http://client_panel;"');
  return site.replaceAll('proxy_pass http://client_panel;', 'proxy_pass http://$panel_upstream;');
}

/**
 * The test-only main file: everything nginx writes stays in `dir` (so it runs as root or
 * not without touching /var), plus pinning by cookie and a header naming the instance.
 */
export function renderMain(dir: string, ports: [number, number]): string {
  const at = (name: string) => path.join(dir, name);
  return `# Test-only wrapper around deploy/nginx.conf (rendered as site.conf).
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
worker_processes 1;
events { worker_connections 512; }
http {
    log_format panel_test '$status $cookie_${PIN_COOKIE} $upstream_addr $request_method $request_uri $cookie_${PAGE_COOKIE}';
    access_log ${at('access.log')} panel_test;
    client_body_temp_path ${at('client_body')};
    proxy_temp_path ${at('proxy')};
    fastcgi_temp_path ${at('fastcgi')};
    uwsgi_temp_path ${at('uwsgi')};
    scgi_temp_path ${at('scgi')};

    # Pinning: ${PIN_COOKIE}=1 or 2 goes to that instance; without it, round-robin.
    map $cookie_${PIN_COOKIE} $panel_upstream {
        "1"     client_panel_1;
        "2"     client_panel_2;
        default client_panel;
    }
    upstream client_panel_1 { server 127.0.0.1:${ports[0]}; }
    upstream client_panel_2 { server 127.0.0.1:${ports[1]}; }
    # Which instance answered (site.conf has no add_header of its own, so this applies).
    add_header X-Panel-Upstream $upstream_addr always;

    include ${at('site.conf')};
}
`;
}

interface Process {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startProcess(
  name: string,
  command: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Process {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) =>
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null)));
    child.once('error', (error) => {
      output.push(String(error));
      resolve(-1);
    });
  });
  return { name, child, output, exited };
}

async function stopProcess(target: Process, signal: NodeJS.Signals): Promise<void> {
  if (target.child.exitCode !== null || target.child.signalCode !== null) return;
  target.child.kill(signal);
  const timer = setTimeout(() => target.child.kill('SIGKILL'), 10_000);
  await target.exited;
  clearTimeout(timer);
}

/** Polls url until it answers 200; fails early when the process behind it exits. */
async function waitForHealth(url: string, processes: Process[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    const gone = processes.find((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    if (gone) {
      throw new Error(`${gone.name} exited before ${url} was healthy:\n${gone.output.join('\n')}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} was not healthy within ${timeoutMs} ms (${last})`);
}

export interface Instance {
  port: number;
  /** As nginx names it in $upstream_addr. */
  address: string;
}

export interface AccessLogEntry {
  status: number;
  /** The pin cookie's value, '-' without one. */
  pin: string;
  /** The instance that answered, as host:port. */
  upstream: string;
  method: string;
  uri: string;
  /** The page cookie's value, '-' without one. */
  page: string;
}

export interface Cluster {
  /** The address browsers open (nginx), also every instance's PUBLIC_URL. */
  url: string;
  instances: [Instance, Instance];
  /** nginx's access log so far (a proxied WebSocket is logged when it closes). */
  accessLog(): Promise<AccessLogEntry[]>;
  /** The instances' log lines at level error or above (JSON logs). */
  errorLogs(): string[];
  /** Everything the instances and nginx printed, for a failed test's report. */
  report(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Makes a scratch database, starts two instances on it at the same moment (so their
 * migrations meet the advisory lock), then nginx in front of them.
 */
export async function startCluster(): Promise<Cluster> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} is missing: run npm run build (scripts/e2e.mjs does)`);
  }
  const adminUrl = new URL(TEST_DATABASE_URL);
  const databaseName = `client_panel_e2e_${randomBytes(6).toString('hex')}`;
  const databaseUrl = new URL(TEST_DATABASE_URL);
  databaseUrl.pathname = `/${databaseName}`;
  const dir = await mkdtemp(path.join(tmpdir(), 'client-panel-nginx-'));
  // nginx's workers (nobody, when the master runs as root) must reach the temp dirs.
  await chmod(dir, 0o755);

  const processes: Process[] = [];
  let databaseMade = false;
  const stop = async () => {
    await Promise.all(
      processes
        .slice()
        .reverse()
        .map((p) => stopProcess(p, 'SIGTERM')),
    );
    if (databaseMade) {
      const admin = new pg.Client({ connectionString: adminUrl.href });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const admin = new pg.Client({ connectionString: adminUrl.href });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${databaseName}"`);
      databaseMade = true;
    } finally {
      await admin.end();
    }

    const [nginxPort, port1, port2] = await freePorts(3);
    const url = `http://localhost:${nginxPort}`;
    const authSecret = randomBytes(32).toString('base64url');
    const instances: [Instance, Instance] = [
      { port: port1, address: `127.0.0.1:${port1}` },
      { port: port2, address: `127.0.0.1:${port2}` },
    ];
    for (const [index, instance] of instances.entries()) {
      processes.push(
        startProcess(`instance ${index + 1}`, process.execPath, [SERVER_ENTRY], {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(instance.port),
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl.href,
          DATABASE_POOL_SIZE: '4',
          AUTH_SECRET: authSecret,
          PUBLIC_URL: url,
          TRUST_PROXY: 'true',
          LOG_FORMAT: 'json',
          LOG_LEVEL: 'warn',
        }),
      );
    }
    const instanceProcesses = processes.slice();
    await Promise.all(
      instances.map((instance) =>
        waitForHealth(`http://127.0.0.1:${instance.port}/api/health`, instanceProcesses, 30_000),
      ),
    );

    // Only once both answer: nginx would otherwise set a refusing one aside for 10 s.
    const production = await readFile(NGINX_CONFIG, 'utf8');
    const ports: [number, number] = [port1, port2];
    await writeFile(
      path.join(dir, 'site.conf'),
      renderSite(production, { listenPort: nginxPort, ports }),
    );
    await writeFile(path.join(dir, 'nginx.conf'), renderMain(dir, ports));
    const errorLog = path.join(dir, 'error.log');
    const nginx = startProcess('nginx', NGINX_PATH, [
      '-p',
      dir,
      '-e',
      errorLog,
      '-c',
      path.join(dir, 'nginx.conf'),
      '-g',
      'daemon off;',
    ]);
    processes.push(nginx);
    await waitForHealth(`http://127.0.0.1:${nginxPort}/api/health`, processes, 10_000).catch(
      async (error: Error) => {
        const log = await readFile(errorLog, 'utf8').catch(() => '');
        throw new Error(`${error.message}\nnginx error.log:\n${log}`);
      },
    );

    return {
      url,
      instances,
      accessLog: async () =>
        (await readFile(path.join(dir, 'access.log'), 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            const [status, pin, upstream, method, uri, page] = line.split(' ');
            return {
              status: Number(status),
              pin: pin ?? '',
              upstream: upstream ?? '',
              method: method ?? '',
              uri: uri ?? '',
              page: page ?? '',
            };
          }),
      errorLogs: () =>
        instanceProcesses.flatMap((p) =>
          p.output.filter((line) => {
            try {
              return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
            } catch {
              return true; // not JSON: a crash or a message outside the logger
            }
          }),
        ),
      report: async () => {
        const sections = processes.map((p) => `--- ${p.name}\n${p.output.join('\n')}`);
        const log = await readFile(errorLog, 'utf8').catch(() => '');
        return [...sections, `--- nginx error.log\n${log}`].join('\n');
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
