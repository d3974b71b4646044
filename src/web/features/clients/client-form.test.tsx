import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { englishFieldMessage, renderWithTexts } from '../../test-utils.tsx';
import { ClientForm } from './client-form.tsx';

const empty = { fname: '', lname: '', email: '', phone: '', balance: '0', language: 'en' } as const;

function renderForm(balanceDisabled: boolean, onSubmit = vi.fn(async () => {})) {
  renderWithTexts(
    <ClientForm
      idPrefix="t"
      label="Add Client"
      initialValues={empty}
      balanceDisabled={balanceDisabled}
      onSubmit={onSubmit}
    />,
  );
  return onSubmit;
}

describe('client form', () => {
  test.each([true, false])(
    'submitting empty shows every field message and sends nothing (balance locked: %s)',
    async (locked) => {
      const onSubmit = renderForm(locked);
      await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText('First name is required')).toBeVisible();
      expect(screen.getByText('Last name is required')).toBeVisible();
      expect(screen.getByText('Email is required')).toBeVisible();
      expect(screen.getByText('Phone is required')).toBeVisible();
      expect(onSubmit).not.toHaveBeenCalled();
    },
  );

  test.each([true, false])(
    'valid fields are submitted, normalised (balance locked: %s)',
    async (locked) => {
      const onSubmit = renderForm(locked);
      await userEvent.type(screen.getByLabelText('First Name'), ' Asha ');
      await userEvent.type(screen.getByLabelText('Last Name'), 'Verma');
      await userEvent.type(screen.getByLabelText('Email'), 'asha@example.com');
      await userEvent.type(screen.getByLabelText('Phone'), '9876543210');
      if (!locked) {
        await userEvent.clear(screen.getByLabelText('Balance'));
        await userEvent.type(screen.getByLabelText('Balance'), '12.5');
      } else {
        expect(screen.getByLabelText('Balance')).toBeDisabled();
      }
      await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
      await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
      const expected = {
        fname: 'Asha',
        lname: 'Verma',
        email: 'asha@example.com',
        phone: '+919876543210',
        language: 'en',
      };
      expect(onSubmit).toHaveBeenCalledWith(locked ? expected : { ...expected, balance: '12.50' });
    },
  );

  test.each(['123456789', '12345678901', '0123456789', '1111111111'])(
    "%s is not a real number: refused under the field with the server's message",
    async (phone) => {
      const onSubmit = renderForm(true);
      await userEvent.type(screen.getByLabelText('First Name'), 'Asha');
      await userEvent.type(screen.getByLabelText('Last Name'), 'Verma');
      await userEvent.type(screen.getByLabelText('Email'), 'asha@example.com');
      await userEvent.type(screen.getByLabelText('Phone'), phone);
      await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(englishFieldMessage('phone.invalid'))).toBeVisible();
      expect(onSubmit).not.toHaveBeenCalled();
    },
  );

  test('a balance with 3 decimals is refused under the field', async () => {
    const onSubmit = renderForm(false);
    await userEvent.clear(screen.getByLabelText('Balance'));
    await userEvent.type(screen.getByLabelText('Balance'), '1.005');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Enter a number with at most 2 decimal places')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
