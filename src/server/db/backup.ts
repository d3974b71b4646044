import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { DatabaseConfig } from '../config.ts';

export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefused';
  }
}

interface BackupResult {
  source: string;
  destination: string;
  pages: number;
  bytes: number;
  milliseconds: number;
}

/** More than any database has: the whole copy is one step, under one read transaction. */
const EVERY_PAGE = 0x7fffffff;

function fsyncPath(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A consistent copy of the SQLite database while the server keeps writing, through SQLite's
 * online backup API. Copied in steps, the backup would start over after every commit of the
 * server (another connection) and never finish under a steady stream of writes; in one step
 * it reads one snapshot, and in WAL mode that blocks no writer. The copy is written beside
 * the destination, checked, made a single file (rollback journal, no -wal to carry) and
 * renamed into place: the destination is never half written.
 */
export async function backupSqlite(
  database: DatabaseConfig,
  destination: string,
): Promise<BackupResult> {
  if (database.kind === 'postgres') {
    throw new BackupRefused(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump (e.g. pg_dump --format=custom --file=panel.dump "$DATABASE_URL") and restore with pg_restore. This command copies the SQLite file.',
    );
  }
  if (database.path === ':memory:') {
    throw new BackupRefused('DATABASE_URL is :memory:: there is no file to back up');
  }
  const source = path.resolve(database.path);
  const target = path.resolve(destination);
  if (!existsSync(source)) throw new BackupRefused(`There is no database at ${source}`);
  if ([source, `${source}-wal`, `${source}-shm`].includes(target)) {
    throw new BackupRefused('The backup must go to another file than the database itself');
  }
  if (!existsSync(path.dirname(target))) {
    throw new BackupRefused(`The directory ${path.dirname(target)} does not exist`);
  }
  if (existsSync(target) && statSync(target).isDirectory()) {
    throw new BackupRefused(`${target} is a directory: give a file name`);
  }

  const started = performance.now();
  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(partial, { progress: () => EVERY_PAGE });
    const copy = new SqliteDatabase(partial);
    try {
      const check = String(copy.pragma('integrity_check', { simple: true }));
      if (check !== 'ok') throw new Error(`the copy failed its integrity check: ${check}`);
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    renameSync(partial, target);
    fsyncPath(path.dirname(target));
    return {
      source,
      destination: target,
      pages: totalPages,
      bytes: statSync(target).size,
      milliseconds: Math.round(performance.now() - started),
    };
  } finally {
    db.close();
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) {
      rmSync(leftover, { force: true });
    }
  }
}
