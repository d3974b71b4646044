/** One formatter per time zone: building one takes tens of microseconds, formatting one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Ledger dates are calendar days in the panel's time zone (TIME_ZONE, India's by default):
 * a payment recorded at 01:00 in Mumbai is dated that day, not the day before in UTC.
 */
export function dateIn(timeZone: string, at: Date = new Date()): string {
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
  return formatter.format(at);
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
