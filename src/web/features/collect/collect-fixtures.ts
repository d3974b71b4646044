import type { Client } from '../../../shared/client-schema.ts';

/** A client as the API answers one, for the getting-paid tests. */
export function collectClient(id: string, fname: string, lname: string, balance: string): Client {
  return {
    id,
    fname,
    lname,
    email: `${fname.toLowerCase()}@example.com`,
    phone: '+919847012345',
    phoneDisplay: '98470 12345',
    phoneValid: true,
    balance,
    version: 1,
    lastPaymentOn: null,
    pendingClaims: 0,
    lastRemindedOn: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
