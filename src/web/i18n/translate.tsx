import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import type { ReactElement } from 'react';
import type { MessageId } from './catalogues.ts';
import { i18n } from './language.ts';

/** What a message's placeholders take: `{name}`, `{count, plural, …}`. */
export type MessageValues = Record<string, string | number | bigint | null | undefined>;

/** A message to show later, in whatever language is chosen by then (a flash, a field error). */
export interface Message {
  id: MessageId;
  values?: MessageValues;
}

/** A message's text in the chosen language, for code outside components (an event handler). */
export function translate(id: MessageId, values?: MessageValues): string {
  return i18n._(id, values as MessageDescriptor['values']);
}

/** `t(id, values)` in a component: the text in the chosen language. */
export function useT(): (id: MessageId, values?: MessageValues) => string {
  const { i18n: active } = useLingui();
  return (id, values) => active._(id, values as MessageDescriptor['values']);
}

/**
 * A message with markup in it: `<0>…</0>` in the text is wrapped in `components[0]`
 * ("Promised <0>₹500</0> by Friday").
 */
export function T(props: {
  id: MessageId;
  values?: MessageValues;
  components?: Record<string, ReactElement>;
}) {
  return <Trans id={props.id} values={props.values} components={props.components} />;
}
