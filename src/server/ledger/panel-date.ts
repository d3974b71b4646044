/** One formatter per time zone: building one takes tens of microseconds, formatting one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The last date worked out, by the second it was for: every list request asks for today, and
 * a day in any time zone begins on a whole second, so one second has one date in each zone.
 */
let last = { timeZone: '', second: Number.NaN, date: '' };

/**
 * Ledger dates are calendar days in the panel's time zone (TIME_ZONE, India's by default):
 * a payment recorded at 01:00 in Mumbai is dated that day, not the day before in UTC.
 */
export function dateIn(timeZone: string, at: Date = new Date()): string {
  const second = Math.floor(at.getTime() / 1000);
  if (second === last.second && timeZone === last.timeZone) return last.date;
  const date = formatterFor(timeZone).format(at);
  last = { timeZone, second, date };
  return date;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA writes dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
