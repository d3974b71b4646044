import { UNATTENDED_AFTER_MS } from '../../shared/session-use.ts';

// What a person does on the page; a live event arriving or data reloading is none of them.
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

// Opening the page is the first thing the person did on it.
let lastInputAt = Date.now();

export function noteInput(at = Date.now()): void {
  lastInputAt = at;
}

/** Follows the person's input on the page, from its start. */
export function watchInput(target: Pick<Window, 'addEventListener'>): void {
  for (const type of INPUT_EVENTS) {
    target.addEventListener(type, () => noteInput(), { capture: true, passive: true });
  }
}

/** Whether nobody has touched the page for a while: its calls are then not a use of the session. */
export function isUnattended(now = Date.now()): boolean {
  return now - lastInputAt >= UNATTENDED_AFTER_MS;
}
