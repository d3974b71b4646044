const timeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/** An API time (ISO, UTC) as people read it, where the operator is: "5 Mar 2026, 4:30 pm". */
export function formatTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

/** Puts text on the clipboard; false where the browser refuses (no permission, not secure). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
