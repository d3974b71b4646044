import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { connectLive } from './live-socket.ts';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function handlers() {
  return { onEvent: vi.fn(), onResync: vi.fn(), onSessionEnded: vi.fn(), onBookChanged: vi.fn() };
}

test('events are passed on; a break reconnects with backoff and asks for a reload', () => {
  const h = handlers();
  const stop = connectLive(h);
  const first = FakeSocket.all[0];
  expect(first?.url).toBe(`ws://${window.location.host}/api/live`);
  first?.onopen?.();
  expect(h.onResync).not.toHaveBeenCalled();
  first?.onmessage?.({ data: JSON.stringify({ type: 'client.deleted', id: 'x' }) });
  expect(h.onEvent).toHaveBeenCalledWith({ type: 'client.deleted', id: 'x' });

  first?.onclose?.({ code: 1006 });
  expect(FakeSocket.all).toHaveLength(1);
  vi.advanceTimersByTime(500);
  expect(FakeSocket.all).toHaveLength(2);
  // The new socket fails before opening: the next wait is longer.
  FakeSocket.all[1]?.onclose?.({ code: 1006 });
  vi.advanceTimersByTime(400);
  expect(FakeSocket.all).toHaveLength(2);
  vi.advanceTimersByTime(700);
  expect(FakeSocket.all).toHaveLength(3);
  FakeSocket.all[2]?.onopen?.();
  expect(h.onResync).toHaveBeenCalledTimes(1);
  stop();
  expect(FakeSocket.all[2]?.closed).toBe(true);
});

test('a socket closed because the session ended is not reopened', () => {
  const h = handlers();
  connectLive(h);
  FakeSocket.all[0]?.onopen?.();
  FakeSocket.all[0]?.onclose?.({ code: 4401 });
  vi.advanceTimersByTime(60_000);
  expect(FakeSocket.all).toHaveLength(1);
  expect(h.onSessionEnded).toHaveBeenCalledTimes(1);
});

test('a message that is not a valid event is not passed on, and what is shown is reloaded', () => {
  const h = handlers();
  connectLive(h);
  FakeSocket.all[0]?.onopen?.();
  for (const data of [
    'not json',
    JSON.stringify({ type: 'client.created' }),
    JSON.stringify({ type: 'client.updated', client: { id: 'x', balance: 12.5 } }),
    JSON.stringify({ type: 'unknown.kind' }),
  ]) {
    FakeSocket.all[0]?.onmessage?.({ data });
  }
  expect(h.onEvent).not.toHaveBeenCalled();
  expect(h.onResync).toHaveBeenCalledTimes(4);
});

test("a socket closed because its book is no longer the tab's says why, and opens again at once", () => {
  const h = handlers();
  connectLive(h);
  FakeSocket.all[0]?.onopen?.();
  FakeSocket.all[0]?.onclose?.({ code: 4403 });
  expect(h.onBookChanged).toHaveBeenLastCalledWith('access');
  vi.advanceTimersByTime(500);
  expect(FakeSocket.all).toHaveLength(2);
  FakeSocket.all[1]?.onopen?.();
  FakeSocket.all[1]?.onclose?.({ code: 4410 });
  expect(h.onBookChanged).toHaveBeenLastCalledWith('switched');
  vi.advanceTimersByTime(500);
  expect(FakeSocket.all).toHaveLength(3);
  expect(h.onSessionEnded).not.toHaveBeenCalled();
});
