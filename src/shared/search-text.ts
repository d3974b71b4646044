/**
 * Search is a case-insensitive substring match, folded once here in JavaScript, so that
 * SQLite and PostgreSQL (whatever its locale), short and long searches, all agree on what
 * "é" matches: lower(), ILIKE and index tokenizers each fold differently.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export interface SearchableFields {
  fname: string;
  lname: string;
  email: string;
  phone: string;
}

/**
 * The four searchable fields, folded, one per line. Search text cannot hold a line break
 * (control characters are refused), so no match spans two fields.
 */
export function searchTextOf(fields: SearchableFields): string {
  return [fields.fname, fields.lname, fields.email, fields.phone].map(foldForSearch).join('\n');
}

// What people write around a phone number's digits.
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/**
 * A search that looks like (part of) a phone number, as its digits: "98765 43210" and
 * "098765-43210" both become "9876543210", found inside a stored "+919876543210". Null for
 * text that is not phone-like or holds fewer than 3 digits.
 */
export function phoneSearchDigits(search: string): string | null {
  const text = search.trim();
  if (!PHONE_LIKE.test(text)) return null;
  const digits = text.replace(/\D/g, '').replace(/^0+/, '');
  return digits.length >= 3 ? digits : null;
}
