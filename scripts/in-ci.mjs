// Whether this run is CI's: there, a test that cannot run (no Chromium, no PostgreSQL) fails
// instead of being skipped with a message. One definition for configs, scripts and tests.
export const inCi = process.env.CI === 'true' || process.env.CI === '1';
