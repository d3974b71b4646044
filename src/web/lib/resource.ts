import { useEffect, useSyncExternalStore } from 'react';
import { worthRetrying } from './api-client.ts';

/**
 * What a component sees of a value read from the server: the shape of a TanStack Query
 * result, so that the session and the settings read the same as the signed-in pages' data.
 */
export type ResourceState<T> = {
  data: T | undefined;
  /** Nothing read yet (a placeholder may show meanwhile). */
  isPending: boolean;
  isPlaceholderData: boolean;
  refetch(): Promise<void>;
} & (
  | { isError: false; error: null }
  /** The last read failed; what was read before stays in `data`. */
  | { isError: true; error: Error }
);

export interface Resource<T> {
  get(): ResourceState<T>;
  subscribe(listener: () => void): () => void;
  /** What the app now knows the value to be: a read under way no longer counts. */
  set(data: T): void;
  /** Reads it again; a later read or `set` wins. Never rejects: a failure is in the state. */
  reload(): Promise<void>;
  /** The value, waiting for its first read if need be; rejects if that failed. */
  ensure(): Promise<T>;
  /** Forgets everything and reads it (the app's start). */
  start(): void;
  /** Reads it again if it is older than its `staleMs` or its last read failed. */
  refreshIfStale(): void;
}

interface ResourceOptions<T> {
  read(): Promise<T>;
  staleMs: number;
  /** Shown until the first read answers (the last value seen, say). */
  placeholder?(): T | undefined;
  /** Called with each new value (to keep a copy). */
  remember?(data: T): void;
}

/**
 * One value the whole app shares (who is signed in, the panel's settings), read with a plain
 * fetch: the pages before sign-in load without TanStack Query (decision 0013). Failed reads
 * are retried as the query client retries (api-client.ts, worthRetrying).
 */
export function createResource<T>(options: ResourceOptions<T>): Resource<T> {
  const listeners = new Set<() => void>();
  let state: ResourceState<T>;
  let readAt = 0;
  // Each read or set takes a number; a read's answer counts only if none came after it.
  let latest = 0;
  let inFlight: Promise<void> | undefined;

  function commit(next: Partial<ResourceState<T>>): void {
    state = { ...state, ...next } as ResourceState<T>;
    for (const listener of listeners) listener();
  }

  async function readWithRetries(): Promise<T> {
    for (let failures = 0; ; failures++) {
      try {
        return await options.read();
      } catch (error) {
        if (!worthRetrying(failures, error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** failures));
      }
    }
  }

  function received(data: T): void {
    readAt = Date.now();
    options.remember?.(data);
    commit({ data, error: null, isPending: false, isError: false, isPlaceholderData: false });
  }

  const resource: Resource<T> = {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(data) {
      latest += 1;
      inFlight = undefined;
      received(data);
    },
    reload() {
      const mine = ++latest;
      const done = readWithRetries().then(
        (data) => {
          if (mine === latest) received(data);
        },
        (error: Error) => {
          if (mine !== latest) return;
          // As a query: what was read before stays, a placeholder goes.
          const data = state.isPlaceholderData ? undefined : state.data;
          commit({ data, error, isPending: false, isError: true, isPlaceholderData: false });
        },
      );
      inFlight = done.finally(() => {
        if (mine === latest) inFlight = undefined;
      });
      return inFlight;
    },
    async ensure() {
      if (state.data === undefined || state.isPlaceholderData) {
        await (inFlight ?? resource.reload());
        if (state.data === undefined || state.isPlaceholderData) throw state.error;
      }
      return state.data as T;
    },
    start() {
      readAt = 0;
      state = unread();
      void resource.reload();
    },
    refreshIfStale() {
      if (!inFlight && (state.isError || Date.now() - readAt > options.staleMs)) {
        void resource.reload();
      }
    },
  };
  function unread(): ResourceState<T> {
    const placeholder = options.placeholder?.();
    return {
      data: placeholder,
      error: null,
      isPending: true,
      isError: false,
      isPlaceholderData: placeholder !== undefined,
      refetch: () => resource.reload(),
    };
  }
  state = unread();
  return resource;
}

/** The resource's current state; a component that shows it reads it again once stale. */
export function useResource<T>(resource: Resource<T>): ResourceState<T> {
  useEffect(() => resource.refreshIfStale(), [resource]);
  return useSyncExternalStore(resource.subscribe, resource.get);
}
