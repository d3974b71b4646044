import { formatAmount } from './money.ts';

/*
 * The links that hand a payment or a reminder to an app on the phone: the server sends
 * nothing and calls nobody (next-api.md, "Statement links" and "Reminders"). Every value in a
 * link is percent-encoded as encodeURIComponent does (a space is %20).
 */

/** UPI apps show at most this much of a payment's note. */
export const UPI_NOTE_MAX_LENGTH = 50;

export interface UpiPayment {
  upiId: string;
  /** The payee name UPI apps show: the payee name, else the business name. */
  payeeName: string;
  businessName: string;
  amountPaise: bigint;
  note: string;
}

/**
 * NPCI's UPI deep link: `upi://pay?pa=…&pn=…&am=…&cu=INR&tn=…`, each value percent-encoded;
 * `am` is the exact amount ("1500.00").
 */
export function upiUri(payment: UpiPayment): string {
  const name = payment.payeeName || payment.businessName;
  const note = [...payment.note].slice(0, UPI_NOTE_MAX_LENGTH).join('').trim();
  const parts: [string, string][] = [
    ['pa', payment.upiId],
    ...(name ? [['pn', name] as [string, string]] : []),
    ['am', formatAmount(payment.amountPaise)],
    ['cu', 'INR'],
    ...(note ? [['tn', note] as [string, string]] : []),
  ];
  return `upi://pay?${parts.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}

/** WhatsApp's click-to-chat: the number's digits with its country code, no "+". */
export function whatsappUrl(e164: string, message: string): string {
  return `https://wa.me/${e164.replace(/\D/g, '')}?text=${encodeURIComponent(message)}`;
}

/** The phone's SMS app, on the number in E.164. */
export function smsUrl(e164: string, message: string): string {
  return `sms:${e164}?body=${encodeURIComponent(message)}`;
}

/**
 * The mail app; the address keeps its "@" readable, each side of it percent-encoded. The
 * subject goes on one line whatever it was saved with (a subject saved before line breaks were
 * refused in it): a CR or LF there would start a header of its own (RFC 6068).
 */
export function mailtoUrl(email: string, subject: string, message: string): string {
  const oneLine = subject.replace(/[\r\n]+/g, ' ');
  const at = email.lastIndexOf('@');
  const address =
    at < 0
      ? encodeURIComponent(email)
      : `${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`;
  return `mailto:${address}?subject=${encodeURIComponent(oneLine)}&body=${encodeURIComponent(message)}`;
}
