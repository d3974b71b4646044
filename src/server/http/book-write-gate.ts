import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DatabaseDeadlineExceeded, databaseWaitMs } from '../db/deadline.ts';

/**
 * PostgreSQL: how many of one book's changes may hold a pooled connection at once on this
 * instance. A book's writes take its totals row in turn, so more of them at once only wait in
 * the database; while one runs long (an import of thousands of rows), the others would each
 * hold a connection until their deadline and leave none for any other book's requests (found
 * by an outside review: every request of the panel answered 503 during a 30,000-row import).
 * Past this many, a book's changes wait here, within their own deadline, holding nothing.
 */
export function writesPerBook(poolSize: number): number {
  return Math.max(2, Math.floor(poolSize / 3));
}

interface Waiter {
  admit(): void;
  timer: ReturnType<typeof setTimeout>;
}

interface Lane {
  running: number;
  waiting: Waiter[];
}

/** Changes of each book in turn, at most `max` of a book at once (first come, first in). */
export class BookWriteGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly max: number) {}

  /**
   * Resolves, with the function that lets the next one in, when this change of the book may
   * go on; fails as the database would have (503) if `waitMs` passes first.
   */
  enter(bookId: string, waitMs: number): Promise<() => void> {
    let lane = this.lanes.get(bookId);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(bookId, lane);
    }
    const current = lane;
    if (current.running < this.max) {
      current.running += 1;
      return Promise.resolve(this.leaver(bookId, current));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          current.running += 1;
          resolve(this.leaver(bookId, current));
        },
        timer: setTimeout(
          () => {
            current.waiting.splice(current.waiting.indexOf(waiter), 1);
            reject(new DatabaseDeadlineExceeded(`the book's other changes for ${waitMs} ms`));
          },
          Math.max(0, waitMs),
        ),
      };
      current.waiting.push(waiter);
    });
  }

  /** The change's way out, once only: the next waiting change of the book comes in. */
  private leaver(bookId: string, lane: Lane): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      lane.running -= 1;
      const next = lane.waiting.shift();
      if (next) next.admit();
      else if (lane.running === 0) this.lanes.delete(bookId);
    };
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The book a request changes: a signed-in route of a book that is not a read. */
function bookChangedBy(request: FastifyRequest): string | undefined {
  if (READS.has(request.method) || request.routeOptions.config.bookAction === undefined) {
    return undefined;
  }
  return request.operator.book?.id;
}

/**
 * Every change of a book passes the gate after its body is read and checked (its database
 * deadline has begun), and leaves it when its answer is sent or its client goes.
 */
export function registerBookWriteGate(app: FastifyInstance, gate: BookWriteGate): void {
  const leavers = new WeakMap<FastifyRequest, () => void>();
  app.addHook('preHandler', async (request) => {
    const bookId = bookChangedBy(request);
    if (bookId === undefined) return;
    leavers.set(request, await gate.enter(bookId, databaseWaitMs()));
  });
  const leave = (request: FastifyRequest) => {
    leavers.get(request)?.();
    leavers.delete(request);
  };
  app.addHook('onResponse', (request, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    leave(request);
    done();
  });
}
