import type { ReactNode } from 'react';
import { translate, useT } from '../../i18n/translate.tsx';
import { formatCount } from '../../lib/counts.ts';

/**
 * "1–50 of 3,214" ("3,214 में से 1–50"), grouped like the money: the rows shown of a page that
 * has some, in the chosen language (call it while drawing).
 */
export function rangeText(page: number, size: number, shown: number, total: number): string {
  const first = (page - 1) * size + 1;
  return translate('clients.pager.range', {
    first: formatCount(first),
    last: formatCount(first + shown - 1),
    total: formatCount(total),
  });
}

/** The page numbers around the current one, with the first and the last always in reach. */
export function pageWindow(page: number, pages: number): number[] {
  const from = Math.max(1, Math.min(page - 2, pages - 4));
  const to = Math.min(pages, from + 4);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** One place in the pager: Bootstrap's pagination classes on a plain button. */
function PageButton({
  label,
  onClick,
  disabled = false,
  current = false,
  children,
}: {
  label: string;
  onClick(): void;
  disabled?: boolean;
  current?: boolean;
  children: ReactNode;
}) {
  return (
    <li className={`page-item${current ? ' active' : ''}${disabled ? ' disabled' : ''}`}>
      <button
        type="button"
        className="page-link"
        disabled={disabled}
        aria-label={label}
        aria-current={current ? 'page' : undefined}
        onClick={onClick}
      >
        {children}
      </button>
    </li>
  );
}

/**
 * The list's pages: first, previous, the numbers around this one, next and last. Plain
 * markup rather than react-bootstrap's Pagination, whose links would join the dashboard's
 * first load (a budgeted size).
 */
export function Pager({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage(page: number): void;
}) {
  const t = useT();
  if (pages <= 1) return null;
  const go = (target: number) => () => {
    onPage(target);
    // At once: Bootstrap makes scrolling smooth, and a smooth scroll is cut short where it
    // stands when the rows change under it (the next page's arrive while it runs).
    window.scrollTo({ top: 0, behavior: 'instant' });
  };
  const first = page === 1;
  const last = page === pages;
  return (
    <ul className="pagination mb-0 flex-wrap">
      <PageButton label={t('clients.pager.first')} onClick={go(1)} disabled={first}>
        <span aria-hidden="true">«</span>
      </PageButton>
      <PageButton label={t('clients.pager.previous')} onClick={go(page - 1)} disabled={first}>
        <span aria-hidden="true">‹</span>
      </PageButton>
      {pageWindow(page, pages).map((number) => (
        <PageButton
          key={number}
          label={t('clients.pager.page', { number })}
          onClick={go(number)}
          current={number === page}
        >
          {number}
        </PageButton>
      ))}
      <PageButton label={t('clients.pager.next')} onClick={go(page + 1)} disabled={last}>
        <span aria-hidden="true">›</span>
      </PageButton>
      <PageButton label={t('clients.pager.last')} onClick={go(pages)} disabled={last}>
        <span aria-hidden="true">»</span>
      </PageButton>
    </ul>
  );
}
