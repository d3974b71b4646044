import { expect, test } from 'vitest';
import { neutraliseFormula } from './client-csv.ts';

test('text a spreadsheet would run as a formula is neutralised, other text is kept', () => {
  for (const formula of ['=1+1', '+91 98765', '-2', '@SUM(A1)', '\tx', '\rx']) {
    expect(neutraliseFormula(formula)).toBe(`'${formula}`);
  }
  for (const text of ['Asha', '98765 43210', 'a=b', '', ' =x']) {
    expect(neutraliseFormula(text)).toBe(text);
  }
});
