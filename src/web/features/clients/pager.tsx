import type { ReactNode } from 'react';

const count = new Intl.NumberFormat('en-IN');

/** "1–50 of 3,214", grouped like the money. */
export function rangeText(page: number, size: number, shown: number, total: number): string {
  if (total === 0) return '0 of 0';
  const first = (page - 1) * size + 1;
  return `${count.format(first)}–${count.format(first + shown - 1)} of ${count.format(total)}`;
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
  if (pages <= 1) return null;
  const go = (target: number) => () => {
    onPage(target);
    window.scrollTo({ top: 0 });
  };
  const first = page === 1;
  const last = page === pages;
  return (
    <ul className="pagination mb-0 flex-wrap">
      <PageButton label="First page" onClick={go(1)} disabled={first}>
        <span aria-hidden="true">«</span>
      </PageButton>
      <PageButton label="Previous page" onClick={go(page - 1)} disabled={first}>
        <span aria-hidden="true">‹</span>
      </PageButton>
      {pageWindow(page, pages).map((number) => (
        <PageButton
          key={number}
          label={`Page ${number}`}
          onClick={go(number)}
          current={number === page}
        >
          {number}
        </PageButton>
      ))}
      <PageButton label="Next page" onClick={go(page + 1)} disabled={last}>
        <span aria-hidden="true">›</span>
      </PageButton>
      <PageButton label="Last page" onClick={go(pages)} disabled={last}>
        <span aria-hidden="true">»</span>
      </PageButton>
    </ul>
  );
}
