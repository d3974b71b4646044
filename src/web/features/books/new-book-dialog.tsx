import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type * as z from 'zod/mini';
import { bookSchema, newBookSchema } from '../../../shared/book-schema.ts';
import { apiPaths, paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { api, workInBook } from '../../lib/api-client.ts';
import { enterBook } from '../../lib/books.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { FAILURE_SECONDS, failureText } from '../../lib/shell-messages.ts';

type NewBookInput = z.input<typeof newBookSchema>;
type NewBook = z.output<typeof newBookSchema>;

/**
 * A book made is one to work in: the session moves into it at once (and the app reloads from
 * it), as after a switch from the menu.
 */
function useCreateBook() {
  return useMutation({
    mutationFn: async (input: NewBook) => {
      const made = await api.post(apiPaths.books, bookSchema, input);
      const current = await api.put(apiPaths.currentBook, bookSchema, { id: made.id });
      workInBook(current.id);
      return current;
    },
  });
}

/** "New book": its name, checked by the shared schema; the caller owns it. */
export function NewBookDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const id = useId();
  const create = useCreateBook();
  const flash = useFlash();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<NewBookInput, unknown, NewBook>({
    resolver: zodResolver(newBookSchema),
    reValidateMode: 'onChange',
    defaultValues: { name: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const book = await create.mutateAsync(values);
      onClose();
      await enterBook(queryClient, () => navigate(paths.dashboard));
      flash.success(translate('books.new.made', { name: book.name }), 5);
    } catch (error) {
      applyServerErrors(error, form.setError, ['name']);
      flash.failure(failureText(translate('books.new.failed'), error), FAILURE_SECONDS);
    }
  });

  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${id}-title`}>
      <Modal.Header closeButton closeLabel={t('shell.close')}>
        <Modal.Title id={`${id}-title`}>{t('books.new.title')}</Modal.Title>
      </Modal.Header>
      <form noValidate onSubmit={submit} aria-label={t('books.new.title')}>
        <Modal.Body>
          <FormField
            id={`${id}-name`}
            label={t('books.new.name')}
            autoComplete="organization"
            help={t('books.new.help')}
            registration={form.register('name')}
            error={errors.name?.message}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            {t('shell.cancel')}
          </Button>
          <Button type="submit" variant="primary" disabled={isSubmitting}>
            {t('books.new.submit')}
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
