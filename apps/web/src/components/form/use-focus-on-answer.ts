'use client';

import { type RefObject, useEffect, useRef } from 'react';

/**
 * For a form whose answer appears below it (an error, a result): after each answer, focus moves to
 * the answer's first focusable heading or message (`tabindex="-1"`), so a screen reader hears it
 * at once. Returns the ref for the element that holds the answer.
 */
export const useFocusOnAnswer = <TState>(
  state: TState,
  hasAnswer: (state: TState) => boolean,
): RefObject<HTMLDivElement | null> => {
  const answerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (hasAnswer(state)) {
      answerRef.current?.querySelector<HTMLElement>('[tabindex="-1"]')?.focus();
    }
  }, [state, hasAnswer]);
  return answerRef;
};
