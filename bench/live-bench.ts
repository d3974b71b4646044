// npm run bench, live part: the live channel of the compiled server under many sockets. How
// long one event to 2,000 sockets holds the server's event loop, /api/health while a burst of
// 50 creates fans out to 2,000 sockets, the server's memory with 10,000 idle sockets, and
// create → event with 1,000 sockets open. The sockets live in a child process of their own,
// and the event loop is watched from inside the server (a preloaded probe), so neither the
// load's work nor its waiting is counted as the server's. Prints figures; asserts nothing.
//
// LIVE_BENCH_SERVER=path/to/index.js runs the same against another build (an older one, to
// compare before and after).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import {
  type BenchOperator,
  percentile,
  residentBytes,
  SERVER_ENTRY,
  signUpOperator,
  startServer,
  stop,
  waitForHealth,
} from './server-process.ts';

const PORT = 3320;
const BASE = `http://127.0.0.1:${PORT}`;
const ORIGIN = `http://localhost:${PORT}`;
const LIVE_URL = `ws://127.0.0.1:${PORT}/api/live`;
const FAN_OUT_SOCKETS = Number(process.env.LIVE_BENCH_FAN_OUT ?? 2_000);
const FAN_OUT_EVENTS = 20;
const BURST = 50;
const IDLE_SOCKETS = Number(process.env.LIVE_BENCH_IDLE ?? 10_000);
/** The default cap per operator: the idle sockets are spread so that none is past it. */
const SOCKETS_PER_OPERATOR = 50;
const LATENCY_SOCKETS = Number(process.env.LIVE_BENCH_LATENCY_SOCKETS ?? 1_000);
const LATENCY_CREATES = Number(process.env.LIVE_BENCH_CREATES ?? 200);
const HEALTH_EVERY_MS = 5;

/** Inside the server: the event loop's delays, read and reset over the IPC channel. */
const LOOP_PROBE = `data:text/javascript,${encodeURIComponent(`
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
const delays = monitorEventLoopDelay({ resolution: 1 });
delays.enable();
let gcMs = 0;
let cpu = process.cpuUsage();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration);
}).observe({ entryTypes: ['gc'] });
process.on('message', (message) => {
  if (message === 'reset') {
    delays.reset();
    gcMs = 0;
    cpu = process.cpuUsage();
  }
  const used = process.cpuUsage(cpu);
  process.send({
    maxMs: delays.max / 1e6,
    p99Ms: delays.percentile(99) / 1e6,
    gcMs,
    cpuMs: (used.user + used.system) / 1000,
  });
});
`)}`;

// ---------------------------------------------------------------------------------------------
// The socket holder: a child process holding the sockets and counting what they receive.

type HolderCommand =
  | { op: 'open'; cookies: string[]; perCookie: number }
  | { op: 'await'; total: number }
  | { op: 'latency'; writers: string[]; creates: number }
  | { op: 'close' };

interface HolderAnswer {
  op: HolderCommand['op'];
  count?: number;
  latencies?: number[];
}

function runHolder(): void {
  const sockets: { socket: WebSocket; cookie: string; received: number }[] = [];
  let total = 0;
  let waiting: { total: number; done: () => void } | undefined;
  const answer = (message: HolderAnswer) => process.send?.(message);

  const openOne = (cookie: string) =>
    new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(LIVE_URL, { headers: { cookie }, origin: ORIGIN });
      const held = { socket, cookie, received: 0 };
      socket.on('message', () => {
        held.received += 1;
        total += 1;
        if (waiting && total >= waiting.total) {
          const { done } = waiting;
          waiting = undefined;
          done();
        }
      });
      socket.once('open', () => {
        sockets.push(held);
        resolve();
      });
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`live upgrade answered ${response.statusCode}`)),
      );
      socket.once('error', reject);
      socket.once('close', (code) => {
        if (code !== 1000 && code !== 1005) console.error(`a held socket closed with ${code}`);
      });
    });

  async function latency(writers: string[], creates: number): Promise<number[]> {
    const latencies: number[] = [];
    for (let i = 0; i < creates; i += 1) {
      const cookie = writers[i % writers.length] as string;
      const mine = sockets.filter((held) => held.cookie === cookie);
      const arrived = mine.map(
        (held) =>
          new Promise<number>((resolve) =>
            held.socket.once('message', () => resolve(performance.now())),
          ),
      );
      const sentAt = performance.now();
      const response = await fetch(`${BASE}/api/clients`, {
        method: 'POST',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
        body: newClient(i),
      });
      if (response.status !== 201) throw new Error(`create answered ${response.status}`);
      for (const at of await Promise.all(arrived)) latencies.push(at - sentAt);
    }
    return latencies;
  }

  process.on('message', async (command: HolderCommand) => {
    if (command.op === 'open') {
      const wanted = command.cookies.flatMap((cookie) =>
        Array.from({ length: command.perCookie }, () => cookie),
      );
      // A few hundred at a time: the server's accept queue is 511 long.
      for (let start = 0; start < wanted.length; start += 250) {
        await Promise.all(wanted.slice(start, start + 250).map(openOne));
      }
      answer({ op: 'open', count: sockets.length });
    } else if (command.op === 'await') {
      const done = () => answer({ op: 'await', count: total });
      if (total >= command.total) done();
      else waiting = { total: command.total, done };
    } else if (command.op === 'latency') {
      answer({ op: 'latency', latencies: await latency(command.writers, command.creates) });
    } else if (command.op === 'close') {
      const closed = sockets.map(
        ({ socket }) => new Promise((resolve) => socket.once('close', resolve)),
      );
      for (const { socket } of sockets) socket.close(1000);
      await Promise.all(closed);
      sockets.length = 0;
      total = 0;
      answer({ op: 'close', count: 0 });
    }
  });
}

const newClient = (i: number) =>
  JSON.stringify({
    fname: `Live${i}`,
    lname: 'Bench',
    email: 'live.bench@example.com',
    phone: '9000000002',
    balance: '10.50',
  });

// ---------------------------------------------------------------------------------------------
// The bench itself.

class Holder {
  private constructor(private readonly child: ChildProcess) {}

  static start(): Holder {
    return new Holder(
      fork(fileURLToPath(import.meta.url), ['holder'], { execArgv: ['--import', 'tsx'] }),
    );
  }

  ask(command: HolderCommand): Promise<HolderAnswer> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the holder exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (message: HolderAnswer) => {
        this.child.off('exit', onExit);
        resolve(message);
      });
      this.child.send(command);
    });
  }

  stop(): Promise<void> {
    return stop(this.child);
  }
}

/**
 * Since the last reset, in ms: the longest delay of the server's event loop, its longest
 * garbage collection, and the CPU time it used (which, unlike delays, does not grow when the
 * machine is busy with other work).
 */
interface LoopFigures {
  maxMs: number;
  p99Ms: number;
  gcMs: number;
  cpuMs: number;
}

class LoopProbe {
  constructor(private readonly server: ChildProcess) {}

  private ask(message: 'reset' | 'read'): Promise<LoopFigures> {
    return new Promise((resolve) => {
      this.server.once('message', (answer: LoopFigures) => resolve(answer));
      this.server.send(message);
    });
  }
  reset() {
    return this.ask('reset');
  }
  read() {
    return this.ask('read');
  }
}

async function post(path: string, cookie: string, body: string): Promise<number> {
  const response = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

async function signUpMany(count: number, prefix: string): Promise<BenchOperator[]> {
  const operators: BenchOperator[] = [];
  // Password hashing is the work here: two at a time keep both cores busy.
  for (let i = 0; i < count; i += 2) {
    const batch = Array.from({ length: Math.min(2, count - i) }, (_, j) =>
      signUpOperator(BASE, ORIGIN, `${prefix}-${i + j}@example.com`),
    );
    operators.push(...(await Promise.all(batch)));
  }
  return operators;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

function summary(values: number[]): { p50: number; p90: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** 10,000 idle sockets over 200 operators: the server's memory, and one event to them all. */
async function idleSockets(
  server: ChildProcess,
  holder: Holder,
  probe: LoopProbe,
  admin: BenchOperator,
  operators: BenchOperator[],
) {
  const pid = server.pid ?? 0;
  const before = residentBytes(pid);
  const opened = await holder.ask({
    op: 'open',
    cookies: operators.map((o) => o.cookie),
    perCookie: SOCKETS_PER_OPERATOR,
  });
  // Idle for 5 s, sampled: a settled figure, not a moment of the opening.
  let peak = 0;
  for (let i = 0; i < 10; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    peak = Math.max(peak, residentBytes(pid));
  }
  const held = residentBytes(pid);
  // A change everyone sees: one settings event to every socket.
  await probe.reset();
  const started = performance.now();
  const settings = await fetch(`${BASE}/api/settings`, {
    method: 'PUT',
    headers: { cookie: admin.cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: true,
    }),
  });
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}`);
  await holder.ask({ op: 'await', total: opened.count ?? 0 });
  const everyoneMs = performance.now() - started;
  const loop = await probe.read();
  await holder.ask({ op: 'close' });
  return { sockets: opened.count ?? 0, before, held, peak, everyoneMs, loop };
}

/**
 * One create at a time to an operator with this many sockets open (the holder has nothing else
 * open): the longest event-loop block around each, and when the last socket had it.
 */
async function fanOut(holder: Holder, probe: LoopProbe, fan: BenchOperator, sockets: number) {
  const blocks: number[] = [];
  const cpu: number[] = [];
  let gcMs = 0;
  const deliveries: number[] = [];
  let received = 0;
  for (let i = 0; i < FAN_OUT_EVENTS; i += 1) {
    await probe.reset();
    const started = performance.now();
    const status = await post('/api/clients', fan.cookie, newClient(i));
    if (status !== 201) throw new Error(`create answered ${status}`);
    received += sockets;
    await holder.ask({ op: 'await', total: received });
    deliveries.push(performance.now() - started);
    const loop = await probe.read();
    blocks.push(loop.maxMs);
    cpu.push(loop.cpuMs);
    gcMs = Math.max(gcMs, loop.gcMs);
  }
  return {
    blocks: summary(blocks),
    cpu: summary(cpu),
    gcMs,
    deliveries: summary(deliveries),
    received,
  };
}

/**
 * 50 creates at once to an operator with 2,000 sockets, while /api/health is asked every 5 ms
 * whatever the answers (so a stalled server is not asked less): its latency from the burst
 * until the last event reached the last socket.
 */
async function healthDuringBurst(
  holder: Holder,
  probe: LoopProbe,
  fan: BenchOperator,
  sockets: number,
  alreadyReceived: number,
) {
  const health: number[] = [];
  const pending: Promise<void>[] = [];
  let asking = true;
  const ask = () => {
    if (!asking) return;
    const sentAt = performance.now();
    pending.push(
      fetch(`${BASE}/api/health`).then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`health answered ${response.status}`);
        health.push(performance.now() - sentAt);
      }),
    );
    setTimeout(ask, HEALTH_EVERY_MS);
  };
  ask();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const quiet = health.length;
  await probe.reset();
  const started = performance.now();
  const creates = await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const sentAt = performance.now();
      const status = await post('/api/clients', fan.cookie, newClient(i));
      if (status !== 201) throw new Error(`create answered ${status}`);
      return performance.now() - sentAt;
    }),
  );
  await holder.ask({ op: 'await', total: alreadyReceived + BURST * sockets });
  const deliveredMs = performance.now() - started;
  asking = false;
  await Promise.all(pending);
  const loop = await probe.read();
  const during = health.slice(quiet);
  return {
    health: summary(during),
    samples: during.length,
    creates: summary(creates),
    deliveredMs,
    loop,
  };
}

async function main(): Promise<void> {
  const entry = process.env.LIVE_BENCH_SERVER ?? SERVER_ENTRY;
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-live-bench-'));
  const server = startServer({
    port: PORT,
    databaseUrl: path.join(dir, 'bench.db'),
    entry,
    // 2,000 sockets for one operator, all from 127.0.0.1: past both default caps.
    env: { LIVE_MAX_SOCKETS_PER_OPERATOR: '0', LIVE_MAX_SOCKETS_PER_ADDRESS: '0' },
    nodeFlags: ['--import', LOOP_PROBE],
    ipc: true,
  });
  const holder = Holder.start();
  try {
    await waitForHealth(BASE);
    const probe = new LoopProbe(server);
    const admin = await signUpOperator(BASE, ORIGIN, 'live-admin@example.com');
    const signUpStarted = performance.now();
    const idleOperators = await signUpMany(IDLE_SOCKETS / SOCKETS_PER_OPERATOR, 'idle');
    const fan = await signUpOperator(BASE, ORIGIN, 'live-fan@example.com');
    const spread = idleOperators.slice(0, LATENCY_SOCKETS / SOCKETS_PER_OPERATOR);
    console.log(
      `server: ${entry}; ${idleOperators.length + 2} operators signed up in ${fixed((performance.now() - signUpStarted) / 1000)} s`,
    );

    const idle = await idleSockets(server, holder, probe, admin, idleOperators);

    // The same with no socket open: what the writes cost by themselves on this machine.
    const alone = await fanOut(holder, probe, fan, 0);
    const burstAlone = await healthDuringBurst(holder, probe, fan, 0, 0);
    await holder.ask({ op: 'open', cookies: [fan.cookie], perCookie: FAN_OUT_SOCKETS });
    const fanned = await fanOut(holder, probe, fan, FAN_OUT_SOCKETS);
    const burst = await healthDuringBurst(holder, probe, fan, FAN_OUT_SOCKETS, fanned.received);
    await holder.ask({ op: 'close' });

    await holder.ask({ op: 'open', cookies: spread.map((o) => o.cookie), perCookie: 50 });
    const spreadLatency = await holder.ask({
      op: 'latency',
      writers: spread.map((o) => o.cookie),
      creates: LATENCY_CREATES,
    });
    await holder.ask({ op: 'close' });
    await holder.ask({ op: 'open', cookies: [fan.cookie], perCookie: LATENCY_SOCKETS });
    const oneLatency = await holder.ask({
      op: 'latency',
      writers: [fan.cookie],
      creates: LATENCY_CREATES,
    });
    await holder.ask({ op: 'close' });

    const ms = (value: number) => `${fixed(value)} ms`;
    console.log(
      `\n${idle.sockets.toLocaleString('en')} idle live sockets (${idleOperators.length} operators × ${SOCKETS_PER_OPERATOR}): server RSS ${mib(idle.held)} MiB (peak ${mib(idle.peak)} MiB; ${mib(idle.before)} MiB before them; ${fixed((idle.held - idle.before) / idle.sockets / 1024)} KiB a socket) (target: under 1 GB)`,
    );
    console.log(
      `one settings change to all ${idle.sockets.toLocaleString('en')}: every socket had it in ${ms(idle.everyoneMs)}; longest event-loop block ${ms(idle.loop.maxMs)}; server CPU ${ms(idle.loop.cpuMs)}`,
    );
    console.log(
      `\none create to an operator with ${FAN_OUT_SOCKETS.toLocaleString('en')} sockets (${FAN_OUT_EVENTS} creates, one at a time):`,
    );
    console.log(
      `  longest event-loop block per create: p50 ${ms(fanned.blocks.p50)}, p90 ${ms(fanned.blocks.p90)}, max ${ms(fanned.blocks.max)} (115–143 ms before decision 0019)`,
    );
    console.log(
      `  create sent → the last of ${FAN_OUT_SOCKETS.toLocaleString('en')} sockets has it: p50 ${ms(fanned.deliveries.p50)}, max ${ms(fanned.deliveries.max)}`,
    );
    console.log(
      `  server CPU time per create: p50 ${ms(fanned.cpu.p50)}, max ${ms(fanned.cpu.max)}; longest garbage collection ${ms(fanned.gcMs)}`,
    );
    console.log(
      `  with no socket open: longest block p50 ${ms(alone.blocks.p50)}, p90 ${ms(alone.blocks.p90)}, max ${ms(alone.blocks.max)}; CPU p50 ${ms(alone.cpu.p50)}; create answered in p50 ${ms(alone.deliveries.p50)}`,
    );
    console.log(
      `\n${BURST} creates at once, ${FAN_OUT_SOCKETS.toLocaleString('en')} sockets (${(BURST * FAN_OUT_SOCKETS).toLocaleString('en')} messages), /api/health every ${HEALTH_EVERY_MS} ms:`,
    );
    console.log(
      `  /api/health (${burst.samples} answers): p50 ${ms(burst.health.p50)}, p99 ${ms(burst.health.p99)}, max ${ms(burst.health.max)} (p99 over 1 s before decision 0019)`,
    );
    console.log(
      `  creates: p50 ${ms(burst.creates.p50)}, max ${ms(burst.creates.max)}; all messages delivered ${ms(burst.deliveredMs)} after the burst began; longest event-loop block ${ms(burst.loop.maxMs)} (longest garbage collection ${ms(burst.loop.gcMs)}); server CPU ${ms(burst.loop.cpuMs)}`,
    );
    console.log(
      `  with no socket open: /api/health p50 ${ms(burstAlone.health.p50)}, p99 ${ms(burstAlone.health.p99)}, max ${ms(burstAlone.health.max)}; creates p50 ${ms(burstAlone.creates.p50)}, max ${ms(burstAlone.creates.max)}; longest block ${ms(burstAlone.loop.maxMs)} (garbage collection ${ms(burstAlone.loop.gcMs)}); server CPU ${ms(burstAlone.loop.cpuMs)}`,
    );
    for (const [label, answer] of [
      [
        `${LATENCY_SOCKETS} sockets, ${spread.length} operators × 50, each create to its operator's 50`,
        spreadLatency,
      ],
      [
        `${LATENCY_SOCKETS} sockets of one operator, each create to all ${LATENCY_SOCKETS}`,
        oneLatency,
      ],
    ] as const) {
      const latencies = summary(answer.latencies ?? []);
      console.log(
        `\ncreate → event, ${label} (${LATENCY_CREATES} creates one at a time, ${(answer.latencies ?? []).length.toLocaleString('en')} deliveries): p50 ${ms(latencies.p50)}, p99 ${ms(latencies.p99)}, max ${ms(latencies.max)} (target: p99 under 20 ms)`,
      );
    }
  } finally {
    await holder.stop();
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'holder') {
  runHolder();
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
