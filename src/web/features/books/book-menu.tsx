import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { roleMay } from '../../../shared/book-roles.ts';
import type { Book } from '../../../shared/book-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { lazyDialog } from '../../components/lazy-dialog.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { asOwnSwitch, enterBook, useBooks, useSwitchBook } from '../../lib/books.ts';
import { FAILURE_SECONDS, failureText } from '../../lib/shell-messages.ts';
import { ROLE_NAMES } from './role-names.ts';

// Made now and then: the dialog (its form and the modal code under it) loads when opened.
const NewBookDialog = lazyDialog(
  'new book dialog',
  () => import('./new-book-dialog.tsx').then((m) => m.NewBookDialog),
  'books.new.title',
);

/**
 * Closes the menu on a click outside it or Escape (focus back on its button, so a keyboard
 * user goes on from where they were), and moves between its items with the arrow keys, as
 * Bootstrap's own dropdown does.
 */
function useMenuKeys(open: boolean, close: () => void) {
  const box = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        close();
        toggle.current?.focus();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const items = [...(box.current?.querySelectorAll<HTMLElement>('.dropdown-item') ?? [])];
      if (items.length === 0) return;
      event.preventDefault();
      const at = items.indexOf(document.activeElement as HTMLElement);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : at + step;
      items[(next + items.length) % items.length]?.focus();
    };
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);
  return { box, toggle };
}

/**
 * The navbar's book: the current book's name, always in sight; its menu switches to another of
 * this account's books (the session's, so every tab follows), makes a new one, and leads to
 * the book's members and, for its owner and managers, its activity.
 */
export function BookMenu() {
  const t = useT();
  const books = useBooks();
  const switchBook = useSwitchBook();
  const queryClient = useQueryClient();
  const flash = useFlash();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const { box, toggle } = useMenuKeys(open, () => setOpen(false));

  if (books.isError && !books.data) {
    return (
      <button type="button" className="nav-link text-warning" onClick={() => books.refetch()}>
        {t('books.menu.failed')}
      </button>
    );
  }
  const current = books.data?.items.find((book) => book.current);
  if (!current) return null;

  async function choose(book: Book) {
    setOpen(false);
    if (book.current) return;
    try {
      await asOwnSwitch(async () => {
        await switchBook.mutateAsync(book.id);
        await enterBook(queryClient, () => navigate(paths.dashboard));
      });
      flash.success(translate('books.flash.switched', { name: book.name }), 4);
    } catch (error) {
      flash.failure(failureText(translate('books.switch.failed'), error), FAILURE_SECONDS);
    }
  }

  return (
    <div className="dropdown me-auto" ref={box}>
      <button
        ref={toggle}
        type="button"
        className="nav-link dropdown-toggle text-truncate book-menu-toggle"
        aria-expanded={open}
        aria-label={t('books.menu.current', { name: current.name })}
        disabled={switchBook.isPending}
        onClick={() => setOpen(!open)}
        data-testid="current-book"
      >
        {current.name}
      </button>
      <ul className={open ? 'dropdown-menu show' : 'dropdown-menu'}>
        {books.data && books.data.items.length > 1 ? (
          <>
            <li>
              <span className="dropdown-header">{t('books.menu.switchTo')}</span>
            </li>
            {books.data.items.map((book) => (
              <li key={book.id}>
                <button
                  type="button"
                  className={book.current ? 'dropdown-item active' : 'dropdown-item'}
                  aria-current={book.current ? 'true' : undefined}
                  onClick={() => void choose(book)}
                >
                  {t('books.menu.bookRole', { name: book.name, role: t(ROLE_NAMES[book.role]) })}
                </button>
              </li>
            ))}
            <li>
              <hr className="dropdown-divider" />
            </li>
          </>
        ) : null}
        {roleMay(current.role, 'activity.read') ? (
          <li>
            <Link className="dropdown-item" to={paths.activity} onClick={() => setOpen(false)}>
              {t('books.menu.activity')}
            </Link>
          </li>
        ) : null}
        <li>
          <Link
            className="dropdown-item"
            to={`${paths.settings}#book`}
            onClick={() => setOpen(false)}
          >
            {t('books.menu.members')}
          </Link>
        </li>
        <li>
          <button
            type="button"
            className="dropdown-item"
            onClick={() => {
              setOpen(false);
              setCreating(true);
            }}
          >
            {t('books.menu.new')}
          </button>
        </li>
      </ul>
      {creating ? <NewBookDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
