import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { createResource } from './resource.ts';

/** A read that answers when the test says. */
function controlledRead<T>() {
  const pending: { resolve(value: T): void; reject(error: Error): void }[] = [];
  const read = vi.fn(() => new Promise<T>((resolve, reject) => pending.push({ resolve, reject })));
  return { read, pending };
}

/** Lets every answer given so far arrive. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('a shared resource (the session, the settings)', () => {
  test('a read that answers after a set does not bring back the older value', async () => {
    const { read, pending } = controlledRead<string | null>();
    const session = createResource({ read, staleMs: 60_000 });
    session.start();
    // Signed out while the start-up read is still under way.
    session.set(null);
    pending[0]?.resolve('op@example.com');
    await settled();
    expect(session.get().data).toBeNull();
  });

  test('the newest of two reads wins, whichever answers last', async () => {
    const { read, pending } = controlledRead<string>();
    const resource = createResource({ read, staleMs: 60_000 });
    resource.start();
    const second = resource.reload();
    pending[1]?.resolve('new');
    await second;
    pending[0]?.resolve('old');
    await settled();
    expect(resource.get().data).toBe('new');
  });

  test('a failed read keeps what was read before and says why; a refusal is not retried', async () => {
    const { read, pending } = controlledRead<string>();
    const resource = createResource({ read, staleMs: 60_000 });
    resource.start();
    pending[0]?.resolve('first');
    await resource.ensure();
    const again = resource.reload();
    pending[1]?.reject(new ApiError(403, 'Refused'));
    await again;
    expect(read).toHaveBeenCalledTimes(2);
    expect(resource.get()).toMatchObject({
      data: 'first',
      isError: true,
      error: { message: 'Refused' },
    });
  });

  test('a failed network is tried twice more before the failure shows', async () => {
    vi.useFakeTimers();
    const { read, pending } = controlledRead<string>();
    const resource = createResource({ read, staleMs: 60_000 });
    resource.start();
    const failure = () => new ApiError(0, 'Could not reach the server');
    pending[0]?.reject(failure());
    await vi.advanceTimersByTimeAsync(1000);
    pending[1]?.reject(failure());
    await vi.advanceTimersByTimeAsync(2000);
    expect(resource.get().isError).toBe(false);
    pending[2]?.resolve('answered');
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(3);
    expect(resource.get()).toMatchObject({ data: 'answered', isError: false, isPending: false });
  });

  test('a placeholder shows until the first answer, and goes if that fails', async () => {
    const { read, pending } = controlledRead<string>();
    const settings = createResource({ read, staleMs: 30_000, placeholder: () => 'cached' });
    settings.start();
    expect(settings.get()).toMatchObject({ data: 'cached', isPlaceholderData: true });
    pending[0]?.reject(new ApiError(404, 'Not found'));
    await expect(settings.ensure()).rejects.toThrow('Not found');
    expect(settings.get()).toMatchObject({ data: undefined, isPlaceholderData: false });
  });

  test('each value read or set is remembered; a stale one is read again when shown', async () => {
    const remember = vi.fn();
    const { read, pending } = controlledRead<string>();
    const resource = createResource({ read, staleMs: 0, remember });
    resource.start();
    pending[0]?.resolve('read');
    await resource.ensure();
    resource.set('set');
    expect(remember.mock.calls).toEqual([['read'], ['set']]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    resource.refreshIfStale();
    expect(read).toHaveBeenCalledTimes(2);
  });
});
