import type { ReactNode } from 'react';

type TProps = {
  label: string;
  pendingLabel: string;
  isPending: boolean;
  icon?: ReactNode;
};

/** The form's one primary action, disabled and saying so while the form is being sent. */
export const SubmitButton = ({ label, pendingLabel, isPending, icon }: TProps) => (
  <div className="form__actions">
    <button type="submit" className="button" disabled={isPending}>
      {icon}
      {isPending ? pendingLabel : label}
    </button>
  </div>
);
