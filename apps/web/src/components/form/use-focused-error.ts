'use client';

import { type RefObject, useEffect, useRef } from 'react';

/**
 * For a form whose refusal shows above it (`FormError`): after each answer with an `error`, the
 * focus moves to it, so a screen reader hears it at once. Returns the ref for `focusRef`.
 */
export const useFocusedError = (state: { error?: string }): RefObject<HTMLElement | null> => {
  const errorRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (state.error) {
      errorRef.current?.focus();
    }
  }, [state]);
  return errorRef;
};
