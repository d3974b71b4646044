import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * A PostgreSQL cluster of its own (Debian's pg_createcluster), for tests that stop and
 * restart the database: the shared server the rest of the suite uses stays up.
 */
export interface TestCluster {
  port: number;
  url(database?: string): string;
  stop(): void;
  start(): void;
  restart(): void;
  drop(): void;
}

const CONFIG_ROOT = '/etc/postgresql';

export function clusterToolsMissing(): string | null {
  if (!existsSync('/usr/bin/pg_createcluster') || !existsSync(CONFIG_ROOT)) {
    return "Debian's PostgreSQL cluster tools (pg_createcluster) are not installed";
  }
  if (process.getuid?.() !== 0) return 'creating a PostgreSQL cluster needs root';
  return null;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function createTestCluster(): TestCluster {
  const version = readdirSync(CONFIG_ROOT).sort().at(-1);
  if (!version) throw new Error('no PostgreSQL version under /etc/postgresql');
  const name = `cptest_${randomBytes(4).toString('hex')}`;
  run('pg_createcluster', [version, name, '--', '--auth=trust']);
  const config = readFileSync(`${CONFIG_ROOT}/${version}/${name}/postgresql.conf`, 'utf8');
  const port = Number(/^port\s*=\s*(\d+)/m.exec(config)?.[1]);
  const control = (action: string) =>
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, action]);
  control('start');
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => control('stop'),
    start: () => control('start'),
    restart: () => control('restart'),
    drop: () => run('pg_dropcluster', ['--stop', version, name]),
  };
}
