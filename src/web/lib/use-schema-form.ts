import { type FormEvent, useRef, useState } from 'react';
import type * as z from 'zod/mini';

type FieldElement = HTMLInputElement | HTMLTextAreaElement;
type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** What an input takes from its form to be one of its fields (FormField's `registration`). */
export interface FieldRegistration {
  name: string;
  ref(element: FieldElement | null): void;
  onChange(event: unknown): unknown;
  onBlur?(event: unknown): unknown;
}

/**
 * A form of text fields checked against a shared schema, for the pages before sign-in, which
 * load without react-hook-form (decision 0013). It behaves as the other forms do: checked on
 * submit, then each field again as it changes; the first field at fault takes the focus; the
 * first message of each field shows under it, the server's too (applyServerErrors).
 */
export function useSchemaForm<Field extends string, Values>(
  schema: z.ZodMiniType<Values>,
  fields: readonly Field[],
) {
  const elements = useRef<Partial<Record<Field, FieldElement | null>>>({});
  const submitted = useRef(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [isSubmitting, setSubmitting] = useState(false);

  function check() {
    const values = Object.fromEntries(
      fields.map((field) => [field, elements.current[field]?.value ?? '']),
    );
    const result = schema.safeParse(values);
    const found: FieldErrors<Field> = {};
    for (const issue of result.error?.issues ?? []) {
      const field = String(issue.path[0]) as Field;
      if (fields.includes(field)) found[field] ??= issue.message;
    }
    return { result, found };
  }

  return {
    errors,
    isSubmitting,
    register: (field: Field): FieldRegistration => ({
      name: field,
      ref: (element) => {
        elements.current[field] = element;
      },
      onChange: () => {
        if (!submitted.current) return;
        const message = check().found[field];
        setErrors((current) => ({ ...current, [field]: message }));
      },
    }),
    setError: (field: Field, error: { message: string }) =>
      setErrors((current) => ({ ...current, [field]: error.message })),
    /** Checks the fields, then hands over what the schema made of them (trimmed, say). */
    handleSubmit: (onValid: (values: Values) => Promise<void>) => async (event: FormEvent) => {
      event.preventDefault();
      submitted.current = true;
      const { result, found } = check();
      setErrors(found);
      if (!result.success) {
        const first = fields.find((field) => found[field]);
        if (first) elements.current[first]?.focus();
        return;
      }
      setSubmitting(true);
      try {
        await onValid(result.data);
      } finally {
        setSubmitting(false);
      }
    },
  };
}
