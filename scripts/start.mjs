// `npm start`: builds the web app and the server when a build is missing or older than its
// sources, then serves the compiled server (plain Node, no TypeScript tooling at run time).
// Signals pass straight to the server for a graceful shutdown.
import { spawn } from 'node:child_process';
import { buildIfStale, SERVER_ENTRY } from './build-if-stale.mjs';

buildIfStale();
const server = spawn(process.execPath, [SERVER_ENTRY], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
