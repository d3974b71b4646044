import { Fragment } from 'react';

/** Longer than this, a piece of an address is cut every `CHUNK` characters as well. */
const LONGEST_PIECE = 12;
const CHUNK = 10;

/**
 * The places an address may wrap: after the "@", before each dot, and before digits that
 * follow letters ("kumar / 1985"); a piece still longer than 12 characters is cut every 10
 * (at 1280 px the clients table has about that much room for the column).
 */
export function emailPieces(email: string): string[] {
  return email
    .split(/(?=\.)|(?<=@)|(?<=\p{L})(?=\p{N})/u)
    .flatMap((piece) =>
      piece.length > LONGEST_PIECE
        ? Array.from({ length: Math.ceil(piece.length / CHUNK) }, (_, i) =>
            piece.slice(i * CHUNK, (i + 1) * CHUNK),
          )
        : [piece],
    );
}

/**
 * An e-mail address that a narrow column wraps where a reader would (`emailPieces`).
 * Bootstrap's `text-break` let the clients table squeeze the column to a few letters and break
 * anywhere ("meera / .pillai / @exa / mple.c / om"); now the column is as wide as the
 * longest piece.
 */
export function EmailAddress({ email }: { email: string }) {
  let start = 0;
  const pieces = emailPieces(email).map((text) => {
    const piece = { text, start };
    start += text.length;
    return piece;
  });
  return (
    <span className="email-address">
      {pieces.map(({ text, start }) => (
        <Fragment key={start}>
          {start > 0 ? <wbr /> : null}
          {text}
        </Fragment>
      ))}
    </span>
  );
}
