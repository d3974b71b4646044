import { describe, expect, test } from 'vitest';
import { fillTemplate } from './collection-schema.ts';

const values = {
  name: 'Asha Verma',
  owedPaise: 123_450n,
  business: 'Sharma Traders',
  link: 'https://panel.example/s/abc',
  upi: 'sharma@upi',
};

describe('a reminder filled in', () => {
  test('has its five placeholders replaced, and what it owes as the app shows money', () => {
    expect(fillTemplate('{name} owes {amount} to {business}: {link} or {upi}', values)).toBe(
      'Asha Verma owes ₹1,234.50 to Sharma Traders: https://panel.example/s/abc or sharma@upi',
    );
  });

  test('keeps any other word in braces as written, those every object has included', () => {
    const text = 'Hi {constructor} {toString} {__proto__} {hasOwnProperty} {valueOf} {Name} {}';
    expect(fillTemplate(text, values)).toBe(text);
  });
});
