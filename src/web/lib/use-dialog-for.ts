import { useState } from 'react';

/**
 * A dialog about something (an operator, a session): asked for, then closed. It keeps what it
 * is about until it has faded out, after `open` turned false, so its text does not flicker.
 */
export function useDialogFor<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  return {
    target,
    open,
    ask(about: T) {
      setTarget(about);
      setOpen(true);
    },
    close: () => setOpen(false),
    exited: () => setTarget(null),
  };
}
