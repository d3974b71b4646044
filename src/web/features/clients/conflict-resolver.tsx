import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Client } from '../../../shared/client-schema.ts';
import { isLanguage, LANGUAGE_NAMES } from '../../../shared/languages.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { formatPhone } from '../../../shared/phone.ts';
import type { MessageId } from '../../i18n/catalogues.ts';
import { useT } from '../../i18n/translate.tsx';
import type { ClientFormOutput } from './client-form.tsx';

type Field = 'fname' | 'lname' | 'email' | 'phone' | 'balance' | 'language';
type Choice = 'mine' | 'current';

const LABELS: Record<Field, MessageId> = {
  fname: 'clients.field.fname',
  lname: 'clients.field.lname',
  email: 'clients.field.email',
  phone: 'clients.field.phone',
  balance: 'clients.field.balance',
  language: 'clients.field.language',
};

function shown(field: Field, value: string): string {
  if (field === 'phone') return formatPhone(value);
  if (field === 'balance') return formatInr(paiseFromAmount(value));
  if (field === 'language' && isLanguage(value)) return LANGUAGE_NAMES[value];
  return value;
}

/** The fields where what the operator typed differs from what is saved now. */
export function conflictingFields(mine: ClientFormOutput, current: Client): Field[] {
  return (Object.keys(LABELS) as Field[]).filter((field) => {
    const value = mine[field];
    return value !== undefined && value !== current[field];
  });
}

interface ConflictResolverProps {
  /** The client as the form opened it. */
  base: Client;
  /** What the operator typed. */
  mine: ClientFormOutput;
  /** The client as someone else saved it meanwhile. */
  current: Client;
  busy: boolean;
  onSave(values: ClientFormOutput): void;
  onTakeCurrent(): void;
}

/**
 * Someone saved the client while the operator was editing: each field where their values
 * differ, side by side, to keep theirs or take the current one, then save against the new
 * version. A field the operator never touched starts on the current value.
 */
export function ConflictResolver({
  base,
  mine,
  current,
  busy,
  onSave,
  onTakeCurrent,
}: ConflictResolverProps) {
  const t = useT();
  const fields = conflictingFields(mine, current);
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(
      fields.map((field) => [field, mine[field] === base[field] ? 'current' : 'mine']),
    ),
  );

  function merged(): ClientFormOutput {
    const values = { ...mine };
    for (const field of fields) {
      if (choices[field] !== 'current') continue;
      if (field === 'language') values.language = current.language;
      else values[field] = current[field];
    }
    return values;
  }

  return (
    <section className="alert alert-warning" aria-labelledby="conflict-heading">
      <h2 id="conflict-heading" className="h5">
        {t('clients.conflict.heading')}
      </h2>
      <p>{t('clients.conflict.explain')}</p>
      {fields.map((field) => (
        <fieldset key={field} className="mb-2">
          <legend className="h6 mb-1">{t(LABELS[field])}</legend>
          <Form.Check
            type="radio"
            id={`conflict-${field}-mine`}
            name={`conflict-${field}`}
            label={t('clients.conflict.mine', { value: shown(field, mine[field] ?? '') })}
            checked={choices[field] === 'mine'}
            onChange={() => setChoices({ ...choices, [field]: 'mine' })}
          />
          <Form.Check
            type="radio"
            id={`conflict-${field}-current`}
            name={`conflict-${field}`}
            label={t('clients.conflict.current', { value: shown(field, current[field]) })}
            checked={choices[field] === 'current'}
            onChange={() => setChoices({ ...choices, [field]: 'current' })}
          />
        </fieldset>
      ))}
      <div className="d-flex flex-wrap gap-2 mt-3">
        <Button variant="primary" disabled={busy} onClick={() => onSave(merged())}>
          {t('clients.conflict.save')}
        </Button>
        <Button variant="outline-secondary" disabled={busy} onClick={onTakeCurrent}>
          {t('clients.conflict.discard')}
        </Button>
      </div>
    </section>
  );
}
