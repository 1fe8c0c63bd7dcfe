import { CircleAlert } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';

type TProps = {
  children: ReactNode;
  id?: string;
  className?: string;
  /** `div` when the error holds more than one paragraph (a link to go on with, say). */
  as?: 'p' | 'div';
  /** Set to the element, so that the form can move the focus to it. */
  focusRef?: RefObject<HTMLElement | null>;
};

/**
 * A problem with the whole submission (rate limited, the API unreachable, a wrong key), above the
 * form or beside it: announced at once and focusable, so a screen reader hears it.
 */
export const FormError = ({ children, id, className, as = 'p', focusRef }: TProps) => {
  const props = {
    id,
    className: className ? `form__error ${className}` : 'form__error',
    role: 'alert',
    tabIndex: -1,
    ref: focusRef
      ? (element: HTMLElement | null) => {
          focusRef.current = element;
        }
      : undefined,
  };
  const icon = <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />;
  return as === 'div' ? (
    <div {...props}>
      {icon}
      {children}
    </div>
  ) : (
    <p {...props}>
      {icon}
      {children}
    </p>
  );
};
