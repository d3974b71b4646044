import { render } from '@testing-library/react';
import { expect, test } from 'vitest';
import { EmailAddress, emailPieces } from './email-address.tsx';

test.each([
  ['meera.pillai@example.com', ['meera', '.pillai@', 'example', '.com']],
  ['rajesh.kumar1985@gmail.com', ['rajesh', '.kumar', '1985@', 'gmail', '.com']],
  [
    'suresh.krishnamurthy1987@gmail.com',
    ['suresh', '.krishnamu', 'rthy', '1987@', 'gmail', '.com'],
  ],
  ['verylongunbrokenlocalpartname@x.in', ['verylongun', 'brokenloca', 'lpartname@', 'x', '.in']],
  ['अनिल.कुमार२०@उदाहरण.भारत', ['अनिल', '.कुमार', '२०@', 'उदाहरण', '.भारत']],
])('%s may wrap only at %j', (email, pieces) => {
  expect(emailPieces(email)).toEqual(pieces);
});

test('the address reads whole, with a line-break opportunity between its pieces only', () => {
  const { container } = render(<EmailAddress email="meera.pillai@example.com" />);
  expect(container.textContent).toBe('meera.pillai@example.com');
  expect(container.innerHTML).toBe(
    '<span class="email-address">meera<wbr>.pillai@<wbr>example<wbr>.com</span>',
  );
});
