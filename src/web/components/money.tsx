import { formatInr, paiseFromAmount } from '../../shared/money.ts';
import { translate } from '../i18n/translate.tsx';

/**
 * An API amount ("1234.50") shown in rupees with Indian grouping, on one line: a net credit's
 * "-₹18,88,888.87" broke after its minus sign on a phone.
 */
export function Money({ amount, className }: { amount: string; className?: string }) {
  return (
    <span className={className ? `text-nowrap ${className}` : 'text-nowrap'}>
      {formatInr(paiseFromAmount(amount))}
    </span>
  );
}

/**
 * A balance as people read it: what a client owes in red; an advance as "₹500.00 in
 * credit" ("₹500.00 अग्रिम"), in green, never "-₹500.00"; nothing owed in green. In the chosen
 * language: call it while drawing.
 */
export function balanceText(amount: string): string {
  const paise = paiseFromAmount(amount);
  return paise < 0n
    ? translate('shell.money.credit', { amount: formatInr(-paise) })
    : formatInr(paise);
}

/** A debt's colour for an amount owed, the clear one for nothing owed or a credit. */
export function balanceClass(amount: string): 'balance-owing' | 'balance-clear' {
  return paiseFromAmount(amount) > 0n ? 'balance-owing' : 'balance-clear';
}

export function Balance({ amount, className = '' }: { amount: string; className?: string }) {
  return (
    <span className={`${balanceClass(amount)} ${className}`.trim()}>{balanceText(amount)}</span>
  );
}
