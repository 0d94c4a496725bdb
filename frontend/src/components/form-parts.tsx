import type { ReactNode } from 'react';

/** Why the last change or read failed, in the API's words (or a check's), as an alert. */
export const ErrorAlert = ({ testId, error }: { testId: string; error: string | undefined }) =>
  error && (
    <p className="error" role="alert" data-testid={testId}>
      {error}
    </p>
  );

/** What a change did ("Saved."), announced politely. */
export const DoneNote = ({ text, testId }: { text: string | undefined; testId: string }) =>
  text && (
    <p className="notice" role="status" data-testid={testId}>
      {text}
    </p>
  );

export interface SubmitButtonProps {
  testId: string;
  /** The form's change is under way: the button waits and says so. */
  busy: boolean;
  busyText: string;
  disabled?: boolean;
  children: ReactNode;
}

export const SubmitButton = ({ testId, busy, busyText, disabled = false, children }: SubmitButtonProps) => (
  <button type="submit" className="primary" data-testid={testId} disabled={disabled || busy}>
    {busy ? busyText : children}
  </button>
);

/** A form's submit button and, where the form can be dismissed, its Cancel. */
export const SubmitActions = ({ onCancel, ...submit }: SubmitButtonProps & { onCancel?: () => void }) => (
  <div className="actions">
    <SubmitButton {...submit} />
    {onCancel && (
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    )}
  </div>
);
