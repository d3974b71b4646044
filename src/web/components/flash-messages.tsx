import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react';
import Alert from 'react-bootstrap/Alert';

export type FlashVariant = 'success' | 'danger';

interface FlashMessage {
  id: number;
  text: string;
  variant: FlashVariant;
}

interface Flash {
  success(text: string, seconds: number): void;
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

  const dismiss = useCallback((id: number) => {
    setList((current) => current.filter((m) => m.id !== id));
  }, []);

  const show = useCallback(
    (text: string, variant: FlashVariant, seconds: number) => {
      const id = nextId.current++;
      // One message of a text at a time: a repeat replaces the old one.
      setList((current) => [...current.filter((m) => m.text !== text), { id, text, variant }]);
      setTimeout(() => dismiss(id), seconds * 1000);
    },
    [dismiss],
  );

  const flash = useMemo<Flash>(
    () => ({
      success: (text, seconds) => show(text, 'success', seconds),
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

/** Success is announced politely (status); a failure interrupts (alert). */
export function FlashMessages() {
  const { list, dismiss } = useContext(FlashListContext);
  return (
    <div className="flash-messages">
      {list.map((message) => (
        <Alert
          key={message.id}
          variant={message.variant}
          role={message.variant === 'danger' ? 'alert' : 'status'}
          dismissible
          onClose={() => dismiss(message.id)}
          className="mb-2"
        >
          {message.text}
        </Alert>
      ))}
    </div>
  );
}
