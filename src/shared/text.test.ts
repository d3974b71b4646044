import { describe, expect, test } from 'vitest';
import { hasForbiddenCharacters, storableText } from './text.ts';

describe('storable text', () => {
  test('ordinary text in any script passes', () => {
    for (const text of ['Élodie', 'राम', '李小龙', "O'Brien-Smith", 'emoji 😀 ok', '']) {
      expect(hasForbiddenCharacters(text), text).toBe(false);
    }
  });

  test('NUL, other control characters and lone surrogates are refused', () => {
    for (const text of [
      'a\u0000b',
      'tab\there',
      'line\nbreak',
      'line\u2028separator',
      'paragraph\u2029separator',
      'del\u007f',
      'c1\u0085',
      'x\ud800',
      '\udc00y',
    ]) {
      expect(hasForbiddenCharacters(text), JSON.stringify(text)).toBe(true);
    }
  });

  test('the bidi controls that turn text around are refused, in a line and in a note; the marks pass', () => {
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2069']) {
      expect(hasForbiddenCharacters(`${control}Admin`), JSON.stringify(control)).toBe(true);
      expect(hasForbiddenCharacters(`paid ${control}Admin`, true), JSON.stringify(control)).toBe(
        true,
      );
    }
    expect(hasForbiddenCharacters('عليّ\u200F Khan\u200E')).toBe(false);
  });

  test('multi-line text may hold tabs and line breaks, nothing else', () => {
    expect(hasForbiddenCharacters('paid in cash\n\tthanks\r\n', true)).toBe(false);
    expect(hasForbiddenCharacters('a\u0000', true)).toBe(true);
    expect(hasForbiddenCharacters('a\ud83d', true)).toBe(true);
  });

  test('the schema says which field holds what', () => {
    const result = storableText('fname').safeParse('Ra\u0000vi');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'First name contains characters that cannot be stored (control or broken characters)',
    );
  });
});
