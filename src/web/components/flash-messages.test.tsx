import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { FlashProvider, useFlash } from './flash-messages.tsx';

afterEach(() => {
  vi.useRealTimers();
});

function Flashes() {
  const flash = useFlash();
  useEffect(() => {
    flash.success('Saved', 5);
    flash.failure('Not saved', 8);
  }, [flash]);
  return null;
}

test("a message's timer goes with the app: none is left to fire once it is gone", () => {
  vi.useFakeTimers();
  const page = render(
    <FlashProvider>
      <Flashes />
    </FlashProvider>,
  );
  expect(vi.getTimerCount()).toBe(2);
  page.unmount();
  expect(vi.getTimerCount()).toBe(0);
});
