// For the tests of the npm scripts: runs `npm run NAME -- ARGS` as a person would, in a process
// group of its own (npm, its shell and whatever the script starts), so that stopping it stops
// everything it started and nothing else.
import { spawn } from 'node:child_process';

export interface ScriptRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr together, as they came. */
  output: string;
}

export interface RunningScript {
  /** Everything printed so far. */
  output(): string;
  /** Resolves when the script has exited by itself. */
  exited: Promise<ScriptRun>;
  /** Whether any process the script started is still running. */
  anyLeft(): boolean;
  /**
   * Sends `signal` to the whole group (SIGINT: Ctrl-C at a terminal) and waits until every
   * process in it has ended; any still there after `graceMs` is SIGKILLed and reported.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<ScriptRun & { leftBehind: boolean }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startNpmScript(
  name: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): RunningScript {
  const child = spawn('npm', ['run', '--silent', name, ...(args.length ? ['--', ...args] : [])], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<ScriptRun>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, output }));
  });
  const signalGroup = (signal: NodeJS.Signals | 0) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
      return true;
    } catch {
      return false;
    }
  };
  return {
    output: () => output,
    exited,
    anyLeft: () => signalGroup(0),
    async stop(signal = 'SIGINT', graceMs = 15_000) {
      signalGroup(signal);
      const deadline = Date.now() + graceMs;
      while (signalGroup(0) && Date.now() < deadline) await sleep(100);
      const leftBehind = signalGroup('SIGKILL');
      return { ...(await exited), leftBehind };
    },
  };
}

/** Runs the script to its end; past `timeoutMs` it is stopped and the run fails. */
export async function runNpmScript(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<ScriptRun> {
  const running = startNpmScript(name, args, env);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const result = await Promise.race([running.exited, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    const stopped = await running.stop('SIGTERM', 5_000);
    throw new Error(
      `npm run ${name} did not finish within ${timeoutMs / 1000} s:\n${stopped.output.slice(-4000)}`,
    );
  }
  return result;
}
