import Pagination from 'react-bootstrap/Pagination';

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
  return (
    <Pagination className="mb-0 flex-wrap">
      <Pagination.First onClick={go(1)} disabled={page === 1} aria-label="First page" />
      <Pagination.Prev onClick={go(page - 1)} disabled={page === 1} aria-label="Previous page" />
      {pageWindow(page, pages).map((number) => (
        <Pagination.Item
          key={number}
          active={number === page}
          onClick={go(number)}
          aria-label={`Page ${number}`}
          aria-current={number === page ? 'page' : undefined}
        >
          {number}
        </Pagination.Item>
      ))}
      <Pagination.Next onClick={go(page + 1)} disabled={page === pages} aria-label="Next page" />
      <Pagination.Last onClick={go(pages)} disabled={page === pages} aria-label="Last page" />
    </Pagination>
  );
}
