// `npm run backup -- FILE`, `npm run reset-link -- EMAIL`, `npm run two-factor-off -- EMAIL`: runs the named command from
// source where tsx is installed (a development checkout), else the compiled one (`npm run
// build` makes it), passing on the remaining arguments.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const COMMANDS = {
  backup: 'db/backup-cli',
  'reset-link': 'auth/reset-link-cli',
  'two-factor-off': 'auth/two-factor-off-cli',
};

const [name, ...rest] = process.argv.slice(2);
const module = COMMANDS[name];
if (!module) {
  console.error(`Unknown command "${name}": one of ${Object.keys(COMMANDS).join(', ')}.`);
  process.exit(1);
}
const source = `src/server/${module}.ts`;
const compiled = `dist/server/server/${module}.js`;

let tsx = true;
try {
  import.meta.resolve('tsx');
} catch {
  tsx = false;
}
if (!tsx && !existsSync(compiled)) {
  console.error(`Neither tsx nor ${compiled} is there: run npm install, or npm run build.`);
  process.exit(1);
}
const args = tsx ? ['--import', 'tsx', source] : [compiled];
const child = spawn(process.execPath, [...args, ...rest], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
