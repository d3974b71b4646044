import type { Client } from '../../../shared/client-schema.ts';
import type { PromiseStatus } from '../../../shared/dues-schema.ts';
import { INTL_LOCALES, type Language } from '../../../shared/languages.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import type { MessageId } from '../../i18n/catalogues.ts';
import { currentLanguage } from '../../i18n/language.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { formatDay, todayHere } from '../../lib/dates.ts';

const shortDayFormats = new Map<Language, Intl.DateTimeFormat>();

/** A day without its year, in the chosen language: "28 Nov"; Hindi names the month in full. */
function shortDayFormat(): Intl.DateTimeFormat {
  const language = currentLanguage();
  let format = shortDayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[language], {
      day: 'numeric',
      month: language === 'hi' ? 'long' : 'short',
      timeZone: 'UTC',
    });
    shortDayFormats.set(language, format);
  }
  return format;
}

/**
 * A date near `today`, short: "28 Nov" ("28 नवंबर") in the same year, "28 Nov 2025"
 * otherwise.
 */
export function formatNearDay(on: string, today = todayHere()): string {
  return on.slice(0, 4) === today.slice(0, 4)
    ? shortDayFormat().format(new Date(`${on}T00:00:00Z`))
    : formatDay(on);
}

/** What a promise is for and by when, for the texts that show it. */
export function promiseValues(promise: { amount: string; by: string }, today?: string) {
  return {
    amount: formatInr(paiseFromAmount(promise.amount)),
    day: formatNearDay(promise.by, today),
  };
}

/** "Promised: ₹5,000.00 by 28 Nov": the words for a client's promise wherever it shows. */
export function promisedText(promise: { amount: string; by: string }, today?: string): string {
  return translate('collect.promise.promised', promiseValues(promise, today));
}

/**
 * What a promise would be for, unless the operator changes it: what is overdue, else the
 * whole balance (nothing when the client owes nothing).
 */
export function promiseAmountFor(client: Client): string {
  if (paiseFromAmount(client.overdue) > 0n) return client.overdue;
  return paiseFromAmount(client.balance) > 0n ? client.balance : '';
}

const STATUS: Record<PromiseStatus, { text: MessageId; bg: string }> = {
  open: { text: 'collect.promise.status.open', bg: 'primary' },
  kept: { text: 'collect.promise.status.kept', bg: 'success' },
  broken: { text: 'collect.promise.status.broken', bg: 'danger' },
  replaced: { text: 'collect.promise.status.replaced', bg: 'secondary' },
};

/** A promise's state, in words and colour: "Broken" never shows as a colour alone. */
export function PromiseStatusBadge({ status }: { status: PromiseStatus }) {
  const t = useT();
  return <span className={`badge text-bg-${STATUS[status].bg}`}>{t(STATUS[status].text)}</span>;
}
