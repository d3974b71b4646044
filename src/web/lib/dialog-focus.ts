// Tab and Shift+Tab go round an open dialog's controls. react-bootstrap's Modal only pulls
// the focus back to the dialog box when it leaves, so Shift+Tab from its first control lands
// on the box itself, and every further Shift+Tab there is pulled back to the box: a keyboard
// user could not go backwards through a dialog at all.

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function controlsOf(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    // Hidden ones (a collapsed part, display: none) take no focus; jsdom has no layout, so
    // only what is hidden by attribute or style is left out there.
    (element) => !element.closest('[hidden], [aria-hidden="true"]') && element.tabIndex >= 0,
  );
}

/** The dialog on top, if one is open. */
function openDialog(doc: Document): HTMLElement | undefined {
  const dialogs = doc.querySelectorAll<HTMLElement>('.modal.show');
  return dialogs[dialogs.length - 1];
}

/** Keeps Tab inside the open dialog, both ways round; answers the way to stop. */
export function keepTabInDialogs(doc: Document = document): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.defaultPrevented) return;
    const dialog = openDialog(doc);
    if (!dialog) return;
    const controls = controlsOf(dialog);
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (!first || !last) return;
    const active = doc.activeElement;
    const outside = !(active instanceof HTMLElement) || !dialog.contains(active);
    if (event.shiftKey && (active === first || active === dialog || outside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || outside)) {
      event.preventDefault();
      first.focus();
    }
  };
  doc.addEventListener('keydown', onKey);
  return () => doc.removeEventListener('keydown', onKey);
}
