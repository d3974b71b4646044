// What a CPU profile of the server says (node --cpu-prof): self time by package and by
// function, total time by function, and how idle the main thread was, over one load's window.
// Used by bench/profile-list.ts and bench/profile-payments.ts.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which package (or part of the app) a script belongs to. */
function packageOf(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('dist/server/');
  return dist >= 0 ? `app: ${url.slice(dist + 'dist/server/'.length)}` : url;
}

/**
 * Only the samples taken while the load ran: V8 stamps them in microseconds of the monotonic
 * clock, the one process.hrtime reads here, so the window is the load's own.
 */
export function summarise(profile: Profile, window: { from: number; to: number }): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node);
  }
  const totalByFunction = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const node = byId.get(id);
    if (!node || at < window.from || at > window.to) return;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += delta;
    const name = `${functionName || '(anonymous)'} ${packageOf(url)}:${lineNumber + 1}`;
    // Total time: each function on the sample's stack once, however often it recurs.
    const onStack = new Set<string>();
    for (let frame: ProfileNode | undefined = node; frame; frame = parentOf.get(frame.id)) {
      const { functionName: f, url: u, lineNumber: l } = frame.callFrame;
      onStack.add(`${f || '(anonymous)'} ${packageOf(u)}:${l + 1}`);
    }
    for (const key of onStack) totalByFunction.set(key, (totalByFunction.get(key) ?? 0) + delta);
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + delta);
    const pkg = functionName.startsWith('(') ? functionName : packageOf(url);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + delta);
  });
  const busy = total - idle;
  const share = (value: number) => `${((100 * value) / Math.max(1, busy)).toFixed(1)}%`;
  console.log(
    `main thread during the load: ${(total / 1e6).toFixed(1)} s profiled, idle ${((100 * idle) / Math.max(1, total)).toFixed(0)}%; shares below are of the busy time`,
  );
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .filter(([name]) => name !== '(idle)' && !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count);
  console.log('\nself time by package:');
  for (const [name, time] of top(selfByPackage, 20)) console.log(`  ${share(time)}  ${name}`);
  console.log('\nself time by function:');
  for (const [name, time] of top(selfByFunction, 30)) console.log(`  ${share(time)}  ${name}`);
  console.log('\ntotal time (self and callees) by function:');
  for (const [name, time] of top(totalByFunction, 50)) console.log(`  ${share(time)}  ${name}`);
}

/** The monotonic clock in microseconds: the one V8 stamps its samples with. */
export const microseconds = () => Number(process.hrtime.bigint() / 1000n);

/** The node flags that make a process write its profile into `dir` when it exits. */
export function cpuProfileFlags(dir: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/**
 * Summarises the profile a stopped process wrote into `dir` (if any) over `window`, and copies
 * it to PROFILE_KEEP when set (to open in a profiler's viewer).
 */
export function summariseWrittenProfile(dir: string, window: { from: number; to: number }): void {
  const written = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!written) return;
  const profileFile = path.join(dir, written);
  summarise(JSON.parse(readFileSync(profileFile, 'utf8')) as Profile, window);
  if (process.env.PROFILE_KEEP) {
    const kept = path.resolve(process.env.PROFILE_KEEP);
    copyFileSync(profileFile, kept);
    console.log(`\nprofile kept in ${kept}`);
  }
}
