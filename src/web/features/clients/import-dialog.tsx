import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Table from 'react-bootstrap/Table';
import {
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportError,
  type ImportField,
  type ImportPreview,
  REQUIRED_IMPORT_FIELDS,
} from '../../../shared/client-csv-import.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { errorText } from '../../i18n/errors.ts';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatCount } from '../../lib/counts.ts';
import { fieldMessageText } from '../../lib/form-errors.ts';
import { messages } from '../../lib/messages.ts';
import { refreshAfterChange } from '../../lib/query-keys.ts';
import { importClients, previewImport } from './import-api.ts';

/** Errors listed on screen; the file may have thousands, and the first ones say enough. */
const SHOWN_ERRORS = 50;

type Step =
  | { kind: 'choose' }
  | { kind: 'checking'; sent: number }
  | { kind: 'preview'; preview: ImportPreview }
  | { kind: 'importing'; preview: ImportPreview; sent: number };

/** What each field is called on screen; the file's own headers stay IMPORT_FIELD_LABELS. */
const FIELD_NAMES: Record<ImportField, MessageId> = {
  fname: 'clients.field.fname',
  lname: 'clients.field.lname',
  email: 'clients.field.email',
  phone: 'clients.field.phone',
  balance: 'clients.field.balance',
  language: 'clients.field.language',
};

function isImportField(field: string): field is ImportField {
  return (IMPORT_FIELDS as readonly string[]).includes(field);
}

/** The rows of a refused import, when the server listed them. */
function errorsOf(error: unknown): ImportError[] {
  if (!(error instanceof ApiError)) return [];
  const body = error.body as { errors?: ImportError[] } | undefined;
  return Array.isArray(body?.errors) ? body.errors : [];
}

function UploadProgress({ sent, label }: { sent: number; label: string }) {
  const t = useT();
  // Once the file has gone, the server checks or stores it: no figure to show, only motion.
  const done = sent >= 1;
  return (
    <ProgressBar
      className="my-3"
      now={done ? 100 : Math.round(sent * 100)}
      animated={done}
      striped={done}
      label={done ? label : `${Math.round(sent * 100)}%`}
      aria-label={done ? label : t('clients.import.uploading')}
    />
  );
}

/**
 * The rows at fault, each with its problem in the chosen language: the shared schemas' field
 * messages have their catalogue's text; the server's others (a column it could not find) show
 * as it wrote them.
 */
function ErrorTable({ errors }: { errors: readonly ImportError[] }) {
  const t = useT();
  if (errors.length === 0) return null;
  return (
    <>
      <Table size="sm" striped className="mb-1">
        <caption className="caption-top">{t('clients.import.errors')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('clients.import.row')}</th>
            <th scope="col">{t('clients.import.column')}</th>
            <th scope="col">{t('clients.import.problem')}</th>
          </tr>
        </thead>
        <tbody>
          {errors.slice(0, SHOWN_ERRORS).map((error) => (
            <tr key={`${error.row}-${error.field}`}>
              <td>{error.row}</td>
              <td>{isImportField(error.field) ? t(FIELD_NAMES[error.field]) : error.field}</td>
              <td>{fieldMessageText(error.message)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {errors.length > SHOWN_ERRORS && (
        <p className="small text-body-secondary">
          {t('clients.import.moreErrors', { count: errors.length - SHOWN_ERRORS })}
        </p>
      )}
    </>
  );
}

function ColumnChoices({
  preview,
  onChange,
}: {
  preview: ImportPreview;
  onChange(columns: (ImportField | null)[]): void;
}) {
  const t = useT();
  const current = preview.columns.map((column) => column.field);
  return (
    <fieldset className="mb-3">
      <legend className="fs-6">{t('clients.import.columns')}</legend>
      {preview.columns.map((column, index) => (
        <Form.Group
          // Columns are positional: their index is what they are.
          // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
          key={index}
          className="d-flex align-items-center gap-2 mb-1"
          controlId={`import-column-${index}`}
        >
          <Form.Label className="mb-0 flex-grow-1 text-truncate">
            {column.header || t('clients.import.columnNumber', { number: index + 1 })}
          </Form.Label>
          <Form.Select
            size="sm"
            className="w-auto"
            value={column.field ?? ''}
            onChange={(event) => {
              const next = [...current];
              next[index] = (event.target.value || null) as ImportField | null;
              onChange(next);
            }}
          >
            <option value="">{t('clients.import.leaveOut')}</option>
            {IMPORT_FIELDS.map((field) => (
              <option key={field} value={field}>
                {t(FIELD_NAMES[field])}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      ))}
    </fieldset>
  );
}

/**
 * Import from a CSV: the file is checked first (nothing stored), the operator sees what would
 * happen and fixes the column names if needed, then every client is stored, or none.
 */
export function ImportDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const flash = useFlash();
  const [file, setFile] = useState<File | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [columns, setColumns] = useState<(ImportField | null)[] | undefined>();
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const [failure, setFailure] = useState<{ message: string; errors: ImportError[] } | null>(null);

  async function check(chosen: File, chosenColumns: (ImportField | null)[] | undefined) {
    setFailure(null);
    if (chosen.size > IMPORT_MAX_BYTES) {
      setStep({ kind: 'choose' });
      setFailure({ message: translate('clients.import.tooBig'), errors: [] });
      return;
    }
    setStep({ kind: 'checking', sent: 0 });
    try {
      const preview = await previewImport(chosen, { columns: chosenColumns }, (sent) =>
        setStep({ kind: 'checking', sent }),
      );
      setStep({ kind: 'preview', preview });
    } catch (error) {
      setStep({ kind: 'choose' });
      setFailure({ message: errorText(error), errors: [] });
    }
  }

  function choose(chosen: File | undefined) {
    if (!chosen) return;
    setFile(chosen);
    setColumns(undefined);
    void check(chosen, undefined);
  }

  async function store(preview: ImportPreview) {
    if (!file) return;
    setFailure(null);
    setStep({ kind: 'importing', preview, sent: 0 });
    try {
      const result = await importClients(file, { columns, skipDuplicates }, (sent) =>
        setStep({ kind: 'importing', preview, sent }),
      );
      refreshAfterChange(queryClient);
      flash.success(
        result.skipped > 0
          ? translate('clients.import.doneSkipped', result)
          : translate('clients.import.done', result),
        messages.clientsImportedSeconds,
      );
      onClose();
    } catch (error) {
      setStep({ kind: 'preview', preview });
      setFailure({
        message: translate('clients.import.nothing', { why: errorText(error) }),
        errors: errorsOf(error),
      });
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    choose(event.dataTransfer.files[0]);
  }

  const preview = step.kind === 'preview' || step.kind === 'importing' ? step.preview : null;
  const toImport = preview ? preview.valid - (skipDuplicates ? preview.duplicates.length : 0) : 0;
  const busy = step.kind === 'checking' || step.kind === 'importing';

  return (
    <Modal show onHide={busy ? () => {} : onClose} size="lg" aria-labelledby="import-title">
      <Modal.Header closeButton={!busy} closeLabel={t('shell.close')}>
        <Modal.Title id="import-title">{t('clients.import.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body onDragOver={(event) => event.preventDefault()} onDrop={drop}>
        <Form.Group controlId="import-file" className="mb-2">
          <Form.Label>{t('clients.import.file')}</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,text/csv"
            disabled={busy}
            aria-describedby="import-file-help"
            onChange={(event) => choose((event.target as HTMLInputElement).files?.[0])}
          />
          <Form.Text id="import-file-help">
            <T
              id="clients.import.help"
              values={{
                rows: formatCount(IMPORT_MAX_ROWS),
                // The headers as the file has them, in English in every language (marked so).
                required: REQUIRED_IMPORT_FIELDS.map((field) => IMPORT_FIELD_LABELS[field]).join(
                  ', ',
                ),
                balance: IMPORT_FIELD_LABELS.balance,
              }}
              components={{ 0: <span lang="en" />, 1: <span lang="en" /> }}
            />
          </Form.Text>
        </Form.Group>

        {step.kind === 'checking' && (
          <UploadProgress sent={step.sent} label={t('clients.import.checking')} />
        )}
        {step.kind === 'importing' && (
          <UploadProgress sent={step.sent} label={t('clients.import.storing')} />
        )}

        {failure && (
          // Plain markup: react-bootstrap's Alert here would split it out of the first page's chunk.
          <div className="alert alert-danger mt-3" role="alert">
            {failure.message}
          </div>
        )}
        {failure && <ErrorTable errors={failure.errors} />}

        {preview && (
          <section aria-label={t('clients.import.what')} className="mt-3">
            <p>
              {preview.errors.length > 0
                ? t('clients.import.summaryProblems', {
                    rows: preview.rows,
                    file: file?.name,
                    valid: preview.valid,
                    problems: preview.errors.length,
                  })
                : t('clients.import.summary', {
                    rows: preview.rows,
                    file: file?.name,
                    valid: preview.valid,
                  })}
            </p>
            <ColumnChoices
              preview={preview}
              onChange={(next) => {
                setColumns(next);
                if (file) void check(file, next);
              }}
            />
            {preview.duplicates.length > 0 && (
              <Form.Check
                id="import-skip-duplicates"
                className="mb-3"
                checked={skipDuplicates}
                onChange={(event) => setSkipDuplicates(event.target.checked)}
                label={t('clients.import.skipDuplicates', {
                  count: preview.duplicates.length,
                  rows: `${preview.duplicates
                    .slice(0, 10)
                    .map((duplicate) => duplicate.row)
                    .join(', ')}${preview.duplicates.length > 10 ? ', …' : ''}`,
                })}
              />
            )}
            {!failure && <ErrorTable errors={preview.errors} />}
            {preview.errors.length > 0 && (
              <p className="text-danger-emphasis">{t('clients.import.fixRows')}</p>
            )}
          </section>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {t('shell.cancel')}
        </Button>
        <Button
          variant="primary"
          disabled={busy || !preview || preview.errors.length > 0 || toImport <= 0}
          onClick={() => preview && void store(preview)}
        >
          {preview && preview.errors.length === 0
            ? t('clients.import.buttonCount', { count: toImport })
            : t('clients.import.button')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
