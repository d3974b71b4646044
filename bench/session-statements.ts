/**
 * The app's session statement (src/server/auth/session.ts) as plain SQL for the benches' floors
 * and for timing it alone: with the session's book membership joined (since issue 23) or as it
 * was before. `$n` placeholders for PostgreSQL, `?` for SQLite.
 */
export function sessionStatement({
  withBook = true,
  dialect = 'sqlite',
}: {
  withBook?: boolean;
  dialect?: 'sqlite' | 'postgres';
} = {}): string {
  const [token, now, bornAfter] = dialect === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
  return `SELECT u.id AS id, u.email AS email, u.role AS role, u.language AS language,
     s.id AS "sessionId",
     s."expiresAt" AS "expiresAt", s."createdAt" AS "createdAt",
     u."twoFactorEnabled" AS "twoFactorEnabled",
     (SELECT require_two_factor FROM settings WHERE id = 1) AS "requireTwoFactor"${
       withBook ? ',\n     m.book_id AS "bookId", m.role AS "bookRole"' : ''
     }
   FROM session s JOIN "user" u ON u.id = s."userId"${
     withBook
       ? '\n     LEFT JOIN book_members m\n       ON m.book_id = COALESCE(s.current_book_id, u.id) AND m.user_id = u.id'
       : ''
   }
   WHERE s.token = ${token} AND s."expiresAt" > ${now} AND s."createdAt" > ${bornAfter}
     AND NOT EXISTS (SELECT 1 FROM operator_deactivations d WHERE d.user_id = u.id)`;
}
