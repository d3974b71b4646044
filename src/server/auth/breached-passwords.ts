import { createHash } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

/**
 * Have I Been Pwned's Pwned Passwords, downloaded by the operator of the panel
 * (docs/decisions/0027-breached-passwords.md): a text file of SHA-1 digests in upper-case hex,
 * sorted, one per line with its count ("5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8:10434004").
 * It is tens of gigabytes, so it is never read whole: a lookup is a binary search over byte
 * offsets, about 25 small reads.
 */
export interface BreachedPasswordList {
  contains(password: string): Promise<boolean>;
  close(): Promise<void>;
}

const DIGEST_LENGTH = 40;
/** Longer than any line ("digest:count" and CRLF): a read at an offset holds the next line. */
const PROBE_BYTES = 128;
/** Once the range is this small it is read in one go. */
const SCAN_BYTES = 16 * 1024;

/** Checks at start-up that the file is there and readable, with the reason when it is not. */
export function checkBreachedPasswordFile(file: string): string | null {
  try {
    accessSync(file, constants.R_OK);
    if (!statSync(file).isFile()) return 'is not a file';
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
  }
}

export function openBreachedPasswordList(file: string): BreachedPasswordList {
  let handle: Promise<FileHandle> | undefined;
  const opened = () => {
    // A failed open is tried again at the next lookup, not remembered.
    handle ??= open(file, 'r').catch((error: unknown) => {
      handle = undefined;
      throw error;
    });
    return handle;
  };

  /**
   * The open file, and its size, reopened when a new download was renamed into its place
   * (the old one is let go, so that its disk space comes back).
   */
  async function current(): Promise<number> {
    const held = await opened();
    const [mine, named] = await Promise.all([held.stat(), stat(file)]);
    if (mine.ino === named.ino && mine.dev === named.dev) return mine.size;
    handle = undefined;
    await held.close();
    return (await (await opened()).stat()).size;
  }

  async function read(at: number, length: number): Promise<string> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await (await opened()).read(buffer, 0, length, at);
    return buffer.toString('latin1', 0, bytesRead).toUpperCase();
  }

  /** The first whole line that starts at or after `offset`: where, and its digest. */
  async function lineFrom(offset: number): Promise<{ start: number; digest: string } | null> {
    if (offset === 0) {
      const text = await read(0, PROBE_BYTES);
      return text ? { start: 0, digest: text.slice(0, DIGEST_LENGTH) } : null;
    }
    // The byte before the offset tells whether a line starts exactly there.
    const text = await read(offset - 1, PROBE_BYTES);
    const newline = text.indexOf('\n');
    if (newline < 0 || newline + 1 >= text.length) return null;
    return {
      start: offset + newline,
      digest: text.slice(newline + 1, newline + 1 + DIGEST_LENGTH),
    };
  }

  return {
    async contains(password) {
      const target = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
      const size = await current();
      // The target's line, if there is one, starts in [low, high).
      let low = 0;
      let high = size;
      while (high - low > SCAN_BYTES) {
        const middle = Math.floor((low + high) / 2);
        const line = await lineFrom(middle);
        if (line?.digest === target) return true;
        if (!line || line.digest > target) high = middle;
        else low = middle;
      }
      const from = Math.max(0, low - 1);
      const text = await read(from, high - from + PROBE_BYTES);
      // A piece before the first line break is the end of a line that starts before `low`.
      const lines = text.split('\n').slice(from === 0 ? 0 : 1);
      return lines.some(
        (line) => line.startsWith(target) && [undefined, ':', '\r'].includes(line[DIGEST_LENGTH]),
      );
    },
    async close() {
      if (handle) await (await handle).close();
    },
  };
}
