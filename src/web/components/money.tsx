import { amountTextToBigPaise, formatInr } from '../../shared/money.ts';

/** An API amount ("1234.50") shown in rupees with Indian grouping. */
export function Money({ amount, className }: { amount: string; className?: string }) {
  return <span className={className}>{formatInr(amountTextToBigPaise(amount))}</span>;
}
