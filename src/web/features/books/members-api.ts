import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { BookRole, INVITE_ROLES } from '../../../shared/book-roles.ts';
import {
  activityPageSchema,
  inviteSchema,
  memberListSchema,
  memberSchema,
} from '../../../shared/book-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { api } from '../../lib/api-client.ts';
import { bookKeys } from '../../lib/books.ts';

/*
 * A book's members, invitations and activity (next-api.md, "Shared books: staff and roles").
 * Each answer is checked against its shared schema.
 */

export function useMembers() {
  return useQuery({
    queryKey: bookKeys.members,
    queryFn: () => api.get(apiPaths.bookMembers, memberListSchema),
  });
}

/**
 * Another role for a member (the owner's). Making another member the owner hands the book
 * over: the caller becomes a manager, so the books (their role) are read again too.
 */
export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: BookRole }) =>
      api.put(apiPaths.bookMember(id), memberSchema, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookKeys.all }),
  });
}

/** A member removed by the owner: their access ends at once (their sockets close). */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(apiPaths.bookMember(id), z.null()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookKeys.members }),
  });
}

/**
 * This member leaves the book: the session falls back to another of their books (the caller
 * then follows it: enterBook).
 */
export function useLeaveBook() {
  return useMutation({
    mutationFn: (ownId: string) => api.delete(apiPaths.bookMember(ownId), z.null()),
  });
}

export function useCreateInvite() {
  return useMutation({
    mutationFn: (role: (typeof INVITE_ROLES)[number]) =>
      api.post(apiPaths.bookInvites, inviteSchema, { role }),
  });
}

/** What a list of activity shows: one client's, one member's, or the whole book's. */
export interface ActivityFilter {
  clientId?: string | undefined;
  memberId?: string | undefined;
}

/**
 * Under the ledger's key: whatever changes a client or a balance (live, or done here) reloads
 * the activity shown with the rest.
 */
export const activityKey = (filter: ActivityFilter) => ['ledger', 'activity', filter] as const;

function activityPath(filter: ActivityFilter, cursor: string | null): string {
  const query = new URLSearchParams();
  if (filter.clientId) query.set('clientId', filter.clientId);
  if (filter.memberId) query.set('memberId', filter.memberId);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `${apiPaths.activity}?${search}` : apiPaths.activity;
}

/** Newest first, a page at a time ("Load more" asks for the next from `nextCursor`). */
export function useActivity(filter: ActivityFilter) {
  return useInfiniteQuery({
    queryKey: activityKey(filter),
    queryFn: ({ pageParam }) => api.get(activityPath(filter, pageParam), activityPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
