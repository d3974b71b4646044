/**
 * A route's serializer for answers written as they are, not parsed again by their schema on
 * the way out: zod's serializer took about a fifth of the server's time on the list, and
 * about 9 µs of each recorded payment (docs/decisions/0034-list-as-fast-as-the-floor.md). Only
 * for hot routes whose answer is the schema's type by construction (TypeScript checks it) and
 * by a test that parses every kind of its answer with the schema and finds nothing more or
 * less. The schema stays on the route for the API description and for that test.
 */
export const writtenAsIs = () => (data: unknown) => JSON.stringify(data);
