import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN_LENGTH } from '../../shared/auth-schema.ts';
import { type BreachedPasswordList, openBreachedPasswordList } from './breached-passwords.ts';

/** OWASP's first recommended argon2id profile: 19 MiB of memory, 2 passes, 1 lane. */
// Algorithm.Argon2id is a const enum, which isolated-module builds cannot read: its value is 2.
const ARGON2ID = 2;

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword({
  hash: encoded,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    // A malformed stored hash is a failed sign-in, not a server error.
    return false;
  }
}

// zxcvbn-ts ships a ranked list of about 49,000 leaked passwords, kept up to date upstream.
const commonPasswords = new Set(dictionary.passwords.map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}

/**
 * Words anyone would try first against this panel (ASVS 5.0 6.1.2): its product name and the
 * names of its roles. The operator's own e-mail address is added per person (contextWordsFor).
 * docs/decisions/0017-context-specific-words.md lists them for people.
 */
const PANEL_CONTEXT_WORDS = [
  'client panel',
  'clients panel',
  'admin',
  'administrator',
  'operator',
] as const;

/**
 * Letters and digits only, in lower case: "Client-Panel", "client_panel" and "ClientPanel"
 * read alike, and so do full-width or accented compatibility forms (NFKC).
 */
function folded(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Shorter pieces of an address ("li", "a1") are too common inside other words to refuse. */
const MIN_CONTEXT_WORD_LENGTH = 3;

/**
 * The words a password must not be built on, folded: the panel's words, and from the e-mail
 * address the whole address, its local part and the domain's names but the last (the
 * top-level domain), each whole and word by word: asha.verma@acme-traders.co.in gives
 * "asha", "verma", "acmetraders", "acme", "traders" ("co" is too short). Longest first, so
 * that a whole address goes before its parts.
 */
export function contextWordsFor(person: { email?: string | undefined } = {}): string[] {
  const words = new Set<string>(PANEL_CONTEXT_WORDS.map(folded));
  const email = person.email?.trim().toLowerCase() ?? '';
  const at = email.lastIndexOf('@');
  if (at > 0) {
    const local = email.slice(0, at);
    const labels = email.slice(at + 1).split('.');
    words.add(folded(email));
    for (const part of [local, ...labels.slice(0, -1)]) {
      words.add(folded(part));
      for (const piece of part.split(/[^\p{L}\p{N}]+/u)) words.add(folded(piece));
    }
  }
  return [...words]
    .filter((word) => word.length >= MIN_CONTEXT_WORD_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/**
 * True when the password is built on context words: once every such word is taken out (with
 * case, spaces and punctuation ignored), what is left is shorter than the minimum length or
 * a common password. "ClientPanel2024!" leaves "2024"; "asha.verma@1234" (for
 * asha.verma@…) leaves "1234". A passphrase that merely contains one of the words, "the
 * operator of the night shift", keeps enough of its own and passes.
 */
function isContextPassword(password: string, person: { email?: string | undefined } = {}): boolean {
  const original = folded(password);
  let rest = original;
  for (const word of contextWordsFor(person)) rest = rest.replaceAll(word, '');
  if (rest === original) return false;
  return rest.length < PASSWORD_MIN_LENGTH || commonPasswords.has(rest);
}

/** Why a new password is refused: common, built on context words, or breached. */
export type PasswordProblem = 'common' | 'context' | 'breached';

/**
 * What is wrong with a new password beyond its length (which the shared schema checks): a
 * common password, or one built on the panel's name, a role or the person's own e-mail
 * address; null when there is nothing wrong. Sign-up, the password change and the reset each
 * call this with the account's e-mail.
 */
export function passwordProblem(
  password: string,
  person: { email?: string | undefined } = {},
): PasswordProblem | null {
  if (isCommonPassword(password)) return 'common';
  if (isContextPassword(password, person)) return 'context';
  return null;
}

/** One open list per file, for the life of the process. */
const breachedLists = new Map<string, BreachedPasswordList>();

/**
 * passwordProblem for a password about to be set (sign-up, a change, a reset), then, when the
 * panel has Have I Been Pwned's Pwned Passwords (BREACHED_PASSWORDS_FILE), whether the
 * password is in it (ASVS 6.2.12). Null when there is nothing wrong.
 */
export async function newPasswordProblem(
  breachedPasswordsFile: string | null,
  password: string,
  person: { email?: string | undefined } = {},
): Promise<PasswordProblem | null> {
  const problem = passwordProblem(password, person);
  if (problem || !breachedPasswordsFile) return problem;
  let list = breachedLists.get(breachedPasswordsFile);
  if (!list) {
    list = openBreachedPasswordList(breachedPasswordsFile);
    breachedLists.set(breachedPasswordsFile, list);
  }
  return (await list.contains(password)) ? 'breached' : null;
}
