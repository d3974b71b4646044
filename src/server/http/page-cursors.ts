import { createCipheriv, createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { PAGE_CURSOR_PATTERN } from '../../shared/ledger-schema.ts';
import { validationMessage } from '../../shared/validation-messages.ts';
import { validationRefusal } from './errors.ts';

/** The lists whose rows are placed by a panel-wide sequence number. */
export type CursorKind = 'entries' | 'activity';

/**
 * A row's place in a list, as the API shows it: its sequence number enciphered, so that a
 * cursor or an activity id no longer tells how many entries or lines the whole panel has
 * recorded, or how fast (they were the panel's own row numbers). One AES block (the kind's tag
 * and the number), written in base64url: 22 characters. The tag names the list: its kind and
 * whose it is (a client's entries, a book's activity), so that a cursor pages only the list it
 * came from. Every instance behind a balancer derives the same key from the auth secret, so a
 * cursor works on any of them; a text this panel did not write, or wrote for another list,
 * reads as no place at all.
 */
export interface PageCursors {
  /** The cursors of one list: its tag is worked out once for all the rows of a page. */
  of(kind: CursorKind, list: string): ListCursors;
}

export interface ListCursors {
  write(seq: bigint): string;
  /** The sequence number of a cursor of this list, or undefined for any other text. */
  read(text: string): bigint | undefined;
}

const CIPHER = 'aes-128-ecb';

function tagOf(kind: CursorKind, list: string): Buffer {
  return createHash('sha256')
    .update(`client-panel page cursor: ${kind}: ${list}`)
    .digest()
    .subarray(0, 8);
}

export function pageCursors(secret: string): PageCursors {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'client-panel page cursors', 16));
  return {
    of(kind, list) {
      const tag = tagOf(kind, list);
      return {
        write(seq) {
          const block = Buffer.alloc(16);
          tag.copy(block, 0);
          block.writeBigUInt64BE(seq, 8);
          const cipher = createCipheriv(CIPHER, key, null).setAutoPadding(false);
          return Buffer.concat([cipher.update(block), cipher.final()]).toString('base64url');
        },
        read(text) {
          if (!PAGE_CURSOR_PATTERN.test(text)) return undefined;
          const sealed = Buffer.from(text, 'base64url');
          // 22 characters carry 132 bits: a text whose last 4 are not zero is not one we wrote.
          if (sealed.length !== 16 || sealed.toString('base64url') !== text) return undefined;
          const decipher = createDecipheriv(CIPHER, key, null).setAutoPadding(false);
          const block = Buffer.concat([decipher.update(sealed), decipher.final()]);
          if (!block.subarray(0, 8).equals(tag)) return undefined;
          return block.readBigUInt64BE(8);
        },
      };
    },
  };
}

/**
 * The place a query's cursor stands for in its list (undefined: the first page). A cursor this
 * panel did not write, or wrote for another list, is refused as a malformed one is: 400, on
 * `cursor`.
 */
export function placeOf(list: ListCursors, cursor: string | undefined): bigint | undefined {
  if (cursor === undefined) return undefined;
  const seq = list.read(cursor);
  if (seq === undefined) throw validationRefusal({ cursor: validationMessage('cursor.invalid') });
  return seq;
}
