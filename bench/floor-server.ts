// The floor: a bare Fastify route over the same SQLite file that runs only the page query
// the app runs for GET /api/clients (no auth, no totals, no validation). Never part of the app.
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const [file, ownerId, port] = process.argv.slice(2);
if (!file || !ownerId || !port) throw new Error('usage: floor-server <db file> <owner id> <port>');

const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 5000');
const page = db.prepare(
  'SELECT * FROM clients WHERE owner_id = ? ORDER BY lname ASC, fname ASC, seq ASC LIMIT 100 OFFSET 0',
);
const app = Fastify({ logger: false });
app.get('/floor', async () => ({ items: page.all(ownerId) }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
