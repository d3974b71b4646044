import { expect, test } from 'vitest';
import { neutraliseFormula, restoreNeutralised } from './client-csv.ts';

test('text a spreadsheet would run as a formula is neutralised, other text is kept', () => {
  for (const formula of ['=1+1', '+91 98765', '-2', '@SUM(A1)', '\tx', '\rx', "'quoted"]) {
    expect(neutraliseFormula(formula)).toBe(`'${formula}`);
  }
  for (const text of ['Asha', '98765 43210', 'a=b', '', ' =x']) {
    expect(neutraliseFormula(text)).toBe(text);
  }
});

test('the import takes back exactly what the export added', () => {
  for (const text of ['=1+1', "'=1+1", "'quoted", "''", '+91 98765', 'Asha', "O'Brien", "'"]) {
    expect(restoreNeutralised(neutraliseFormula(text))).toBe(text);
  }
  expect(restoreNeutralised("'Asha")).toBe("'Asha");
});
