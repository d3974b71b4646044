import {
  BOOK_ACCESS_CHANGED_CLOSE_CODE,
  BOOK_SWITCHED_CLOSE_CODE,
  type LiveEvent,
  liveEventSchema,
  SESSION_ENDED_CLOSE_CODE,
} from '../../shared/live-events.ts';
import { apiPaths } from '../../shared/paths.ts';

export interface LiveHandlers {
  onEvent(event: LiveEvent): void;
  /**
   * Something may have been missed (the socket is open again after a break, or a message
   * could not be read): whatever is shown must be reloaded.
   */
  onResync(): void;
  /** The server closed the socket because the session ended. */
  onSessionEnded(): void;
  /**
   * The server closed the socket because its book is no longer this tab's: this member's access
   * changed (`access`: removed, left, another role) or the session switched books (`switched`).
   * The socket opens again at once, on the session's current book.
   */
  onBookChanged(why: 'access' | 'switched'): void;
  /** The channel is open (true), or broken and being opened again (false). */
  onConnectionChange?(connected: boolean): void;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

/** One socket per tab, reconnecting with capped exponential backoff; returns a stop function. */
export function connectLive(handlers: LiveHandlers): () => void {
  let socket: WebSocket | undefined;
  let attempt = 0;
  let hadConnection = false;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${apiPaths.live}`;

  function scheduleRetry() {
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
    attempt += 1;
    // Jitter keeps a restarted server from being hit by every tab at once.
    retryTimer = setTimeout(open, delay / 2 + Math.random() * (delay / 2));
  }

  function open() {
    if (stopped) return;
    socket = new WebSocket(url);
    socket.onopen = () => {
      handlers.onConnectionChange?.(true);
      if (hadConnection) handlers.onResync();
      hadConnection = true;
      attempt = 0;
    };
    socket.onmessage = (message) => {
      let data: unknown;
      try {
        data = JSON.parse(String(message.data));
      } catch {
        data = undefined;
      }
      const event = liveEventSchema.safeParse(data);
      if (event.success) handlers.onEvent(event.data);
      else handlers.onResync();
    };
    socket.onclose = (event) => {
      socket = undefined;
      if (stopped) return;
      if (event.code === SESSION_ENDED_CLOSE_CODE) {
        handlers.onSessionEnded();
        return;
      }
      if (
        event.code === BOOK_ACCESS_CHANGED_CLOSE_CODE ||
        event.code === BOOK_SWITCHED_CLOSE_CODE
      ) {
        handlers.onBookChanged(event.code === BOOK_SWITCHED_CLOSE_CODE ? 'switched' : 'access');
        // Not a break: the next socket is for the book the session is in now.
        attempt = 0;
      }
      // Said for a book's change too: its new socket opens at once, well inside the delay
      // before a page shows a break (signed-in.tsx), so only a real break is seen.
      handlers.onConnectionChange?.(false);
      // A break after a working connection means events may have been missed.
      scheduleRetry();
    };
  }

  open();
  return () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    socket?.close(1000, 'tab closed the live channel');
  };
}
