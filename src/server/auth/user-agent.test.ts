import { describe, expect, test } from 'vitest';
import { describeUserAgent, UNKNOWN_DEVICE } from './user-agent.ts';

describe('a user agent in a few words', () => {
  test.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'Chrome on iOS',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPadOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Firefox on Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
      'Opera on Windows',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome on ChromeOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'A browser on Linux'],
    ['curl/8.5.0', 'curl/8.5.0'],
  ])('%s reads "%s"', (agent, expected) => {
    expect(describeUserAgent(agent)).toBe(expected);
  });

  test('none, or only spaces, is an unknown device', () => {
    expect(describeUserAgent(undefined)).toBe(UNKNOWN_DEVICE);
    expect(describeUserAgent(null)).toBe(UNKNOWN_DEVICE);
    expect(describeUserAgent('   ')).toBe(UNKNOWN_DEVICE);
  });

  test('an agent naming nothing known is cut to 60 whole characters', () => {
    const long = `${'x'.repeat(59)}😀${'y'.repeat(40)}`;
    expect(describeUserAgent(long)).toBe(`${'x'.repeat(59)}😀…`);
  });

  test('only the first 512 characters are read: a crafted 16 KiB agent cannot make a pattern crawl', () => {
    // Backtracking patterns take time in the square of what they scan; 16 KiB took 200 ms.
    const crafted = `Version/${'1'.repeat(16_000)}`;
    expect(describeUserAgent(crafted)).toBe(`Version/${'1'.repeat(52)}…`);
    const namedLate = `${'x'.repeat(600)} Version/17.5 Safari/605.1.15`;
    expect(describeUserAgent(namedLate)).toBe(`${'x'.repeat(60)}…`);
    expect(
      describeUserAgent(`Mozilla/5.0 (Macintosh) Version/17.5 ${'x'.repeat(400)} Safari/605`),
    ).toBe('Safari on macOS');
  });
});
