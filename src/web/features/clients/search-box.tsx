import { useEffect, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { useT } from '../../i18n/translate.tsx';

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

  // Back, forward or a link may change the search from outside.
  useEffect(() => setText(value), [value]);

  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

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

  return (
    <Form.Group controlId="client-search" className="flex-grow-1">
      <Form.Label className="visually-hidden">{t('clients.search.label')}</Form.Label>
      <Form.Control
        ref={input}
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
            latest.current('');
          }
        }}
      />
    </Form.Group>
  );
}
