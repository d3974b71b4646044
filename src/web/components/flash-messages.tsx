import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useT } from '../i18n/translate.tsx';

export type FlashVariant = 'success' | 'danger';

/** A button in the message, such as "Undo" (its text in the chosen language); using it closes the message. */
export interface FlashAction {
  label: string;
  run(): void;
}

interface FlashMessage {
  id: number;
  text: string;
  variant: FlashVariant;
  action?: FlashAction | undefined;
}

export interface Flash {
  success(text: string, seconds: number, action?: FlashAction): void;
  failure(text: string, seconds: number): void;
}

const FlashContext = createContext<Flash | null>(null);
const FlashListContext = createContext<{ list: FlashMessage[]; dismiss(id: number): void }>({
  list: [],
  dismiss: () => {},
});

export function FlashProvider({ children }: { children: ReactNode }) {
  const [list, setList] = useState<FlashMessage[]>([]);
  const nextId = useRef(1);
  // Each message's end, cancelled if the app goes first (a test's page, torn down).
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const dismiss = useCallback((id: number) => {
    setList((current) => current.filter((m) => m.id !== id));
  }, []);

  const show = useCallback(
    (text: string, variant: FlashVariant, seconds: number, action?: FlashAction) => {
      const id = nextId.current++;
      // One message of a text at a time: a repeat replaces the old one. A success also
      // takes away the failures before it: they are about an attempt that has now worked.
      setList((current) => [
        ...current.filter(
          (m) => m.text !== text && !(variant === 'success' && m.variant === 'danger'),
        ),
        { id, text, variant, action },
      ]);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        dismiss(id);
      }, seconds * 1000);
      timers.current.add(timer);
    },
    [dismiss],
  );

  const flash = useMemo<Flash>(
    () => ({
      success: (text, seconds, action) => show(text, 'success', seconds, action),
      failure: (text, seconds) => show(text, 'danger', seconds),
    }),
    [show],
  );
  const listValue = useMemo(() => ({ list, dismiss }), [list, dismiss]);

  return (
    <FlashContext.Provider value={flash}>
      <FlashListContext.Provider value={listValue}>{children}</FlashListContext.Provider>
    </FlashContext.Provider>
  );
}

export function useFlash(): Flash {
  const flash = useContext(FlashContext);
  if (!flash) throw new Error('useFlash must be used inside <FlashProvider>');
  return flash;
}

function Message({ message, onClose }: { message: FlashMessage; onClose(): void }) {
  const t = useT();
  return (
    <div className={`alert alert-${message.variant} alert-dismissible mb-2`}>
      {message.text}
      {message.action ? (
        <button
          type="button"
          className="btn btn-link alert-link p-0 ms-2 align-baseline"
          onClick={() => {
            onClose();
            message.action?.run();
          }}
        >
          {message.action.label}
        </button>
      ) : null}
      <button type="button" className="btn-close" aria-label={t('shell.close')} onClick={onClose} />
    </div>
  );
}

/**
 * Bootstrap's classes rather than react-bootstrap's components, as everything the sign-in
 * page shows (decision 0013). Messages float in a corner, so nothing on the page moves when they come and go. The two
 * live regions are always there, so that screen readers announce what appears in them:
 * success politely (status), a failure at once (alert).
 */
export function FlashMessages() {
  const { list, dismiss } = useContext(FlashListContext);
  const region = (variant: FlashVariant) =>
    list
      .filter((message) => message.variant === variant)
      .map((message) => (
        <Message key={message.id} message={message} onClose={() => dismiss(message.id)} />
      ));
  return (
    <div className="flash-region">
      <div role="status" aria-live="polite" aria-atomic="false">
        {region('success')}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="false">
        {region('danger')}
      </div>
    </div>
  );
}
