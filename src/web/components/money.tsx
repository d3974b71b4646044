import { formatInr, paiseFromAmount } from '../../shared/money.ts';

/** An API amount ("1234.50") shown in rupees with Indian grouping. */
export function Money({ amount, className }: { amount: string; className?: string }) {
  return <span className={className}>{formatInr(paiseFromAmount(amount))}</span>;
}

/**
 * A balance as people read it: what a client owes in red; an advance as "₹500.00 in
 * credit", in green, never "-₹500.00"; nothing owed in green.
 */
export function balanceText(amount: string): string {
  const paise = paiseFromAmount(amount);
  return paise < 0n ? `${formatInr(-paise)} in credit` : formatInr(paise);
}

export function Balance({ amount, className = '' }: { amount: string; className?: string }) {
  const owing = paiseFromAmount(amount) > 0n;
  return (
    <span className={`${owing ? 'balance-owing' : 'balance-clear'} ${className}`.trim()}>
      {balanceText(amount)}
    </span>
  );
}
