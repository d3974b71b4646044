import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/translate.tsx';
import { PendingEchoes } from '../../lib/pending-echoes.ts';

const DEBOUNCE_MS = 150;

/**
 * Search as you type: the list follows 150 ms after the last keystroke. "/" anywhere on the
 * page puts the cursor here; Esc clears it.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch(q: string): void }) {
  const t = useT();
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  // The searches handed to the list come back as `value` (through the URL) later, perhaps
  // after the next key: an echo is not put back in the box, or keys pressed since would be
  // lost, and so would a space typed between two words, which the search trims.
  const [sent] = useState(() => new PendingEchoes(value));

  // Back, forward or a link may change the search from outside.
  useEffect(() => {
    if (!sent.see(value)) setText(value);
  }, [sent, value]);

  useEffect(() => {
    const q = text.trim();
    if (q === sent.latest()) return;
    const timer = setTimeout(() => {
      sent.ask(q);
      latest.current(q);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [sent, text]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      const typing =
        target?.isContentEditable ||
        ['INPUT', 'TEXTAREA', 'SELECT'].includes(target?.tagName ?? '');
      if (event.key === '/' && !typing && !event.metaKey && !event.ctrlKey && !event.altKey) {
        event.preventDefault();
        input.current?.focus();
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Bootstrap's classes, not react-bootstrap's Form (and all its parts): the dashboard's first
  // load is budgeted (decision 0013).
  return (
    <div className="flex-grow-1">
      <label htmlFor="client-search" className="form-label visually-hidden">
        {t('clients.search.label')}
      </label>
      <input
        ref={input}
        id="client-search"
        className="form-control"
        type="search"
        placeholder={t('clients.search.placeholder')}
        autoComplete="off"
        value={text}
        maxLength={200}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            event.preventDefault();
            setText('');
            sent.ask('');
            latest.current('');
          }
        }}
      />
    </div>
  );
}
