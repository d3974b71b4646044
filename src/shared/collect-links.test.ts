import { describe, expect, test } from 'vitest';
import { mailtoUrl } from './collect-links.ts';

describe('a reminder by e-mail', () => {
  test('a subject saved with line breaks goes out on one line: no header of its own', () => {
    const url = mailtoUrl('asha@example.com', 'Dues\r\nBcc: someone@example.com', 'Pay\nplease');
    expect(url).toBe(
      `mailto:asha@example.com?subject=${encodeURIComponent('Dues Bcc: someone@example.com')}&body=${encodeURIComponent('Pay\nplease')}`,
    );
    expect(url).not.toMatch(/subject=[^&]*%0[AD]/i);
  });
});
