import type { BookRole } from '../../../shared/book-roles.ts';
import type { MessageId } from '../../i18n/catalogues.ts';

/** Each role's name, in the books catalogue. */
export const ROLE_NAMES: Record<BookRole, MessageId> = {
  owner: 'books.role.owner',
  manager: 'books.role.manager',
  staff: 'books.role.staff',
  viewer: 'books.role.viewer',
};
