/** Today's date where the operator is, written YYYY-MM-DD (what date inputs hold). */
export function todayHere(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const dayFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar date (YYYY-MM-DD) as people read it: "5 Mar 2026". */
export function formatDay(on: string): string {
  return dayFormat.format(new Date(`${on}T00:00:00Z`));
}

const timeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/** An API time (ISO, UTC) as people read it, where the operator is: "5 Mar 2026, 4:30 pm". */
export function formatTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}
