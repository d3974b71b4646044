import { useRef, useState } from 'react';

/** Finds what is to have the focus; nothing (yet) while the page has not caught up. */
export type FocusTarget = () => HTMLElement | null | undefined;

/**
 * Focuses what `find` finds, now or over the next second as the page catches up (a list read
 * again), else what `orElse` finds (a section's heading). It gives up if the focus went
 * somewhere meanwhile: the operator moved on.
 */
export function focusSoon(find: FocusTarget, orElse?: FocusTarget): void {
  const start = document.activeElement;
  let frames = 0;
  const attempt = () => {
    const active = document.activeElement;
    if (active !== start && active !== null && active !== document.body) return;
    const element = find() ?? (frames >= 60 ? orElse?.() : null);
    if (element) element.focus();
    else if (frames++ < 60) requestAnimationFrame(attempt);
  };
  attempt();
}

/**
 * A dialog about something (an operator, a session): asked for, then closed. It keeps what it
 * is about until it has faded out, after `open` turned false, so its text does not flicker.
 *
 * Closed, the dialog gives the focus back to what opened it (the Modal's `restoreFocus`). When
 * that went with what was done (a row's "End", the "Turn on" its outcome replaced), `closeAndFocus`
 * names what takes it instead, once the dialog has faded out.
 */
export function useDialogFor<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const [restoreFocus, setRestoreFocus] = useState(true);
  const then = useRef<[FocusTarget, FocusTarget?] | null>(null);
  return {
    target,
    open,
    /** For the Modal: false when something else is to take the focus. */
    restoreFocus,
    ask(about: T) {
      setTarget(about);
      then.current = null;
      setRestoreFocus(true);
      setOpen(true);
    },
    close: () => setOpen(false),
    closeAndFocus(find: FocusTarget, orElse?: FocusTarget) {
      then.current = [find, orElse];
      setRestoreFocus(false);
      setOpen(false);
    },
    exited() {
      setTarget(null);
      if (then.current) focusSoon(...then.current);
      then.current = null;
    },
  };
}
