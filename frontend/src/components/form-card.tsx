import type { FormEvent, ReactNode } from 'react';
import { DoneNote, ErrorAlert, SubmitActions } from './form-parts';

interface FormCardProps {
  /** Names the form's parts: `{name}-heading`, and the test ids `{name}-error`, `{name}-saved`, `{name}-submit`. */
  name: string;
  title: string;
  /** A line under the heading saying what the form does. */
  intro?: ReactNode;
  /** What useCheckedSubmit answers: the submit, whether it runs, the form's alert and what it did ("Saved."). */
  form: { submit: (event: FormEvent<HTMLFormElement>) => void; busy: boolean; error?: string; done?: string };
  /** Shown between the alert and the fields, e.g. a secret the change answered once. */
  notice?: ReactNode;
  submitText: string;
  busyText: string;
  /** A form that can be dismissed (a create form opened from a menu) has a Cancel. */
  onCancel?: () => void;
  /** The submit waits for something the form says (e.g. a rollout until a test run passed). @default false */
  disabled?: boolean;
  /** The fields. */
  children: ReactNode;
}

/**
 * The shell of every create and edit form: a card with its heading, the alert, what the change did, the fields and
 * the submit (with Cancel where it can be dismissed). Fields check themselves before anything is sent.
 */
export const FormCard = ({
  name,
  title,
  intro,
  form,
  notice,
  submitText,
  busyText,
  onCancel,
  disabled,
  children,
}: FormCardProps) => (
  <form className="card create-form" onSubmit={form.submit} noValidate aria-labelledby={`${name}-heading`}>
    <h2 id={`${name}-heading`}>{title}</h2>
    {intro && <p className="muted small">{intro}</p>}
    <ErrorAlert testId={`${name}-error`} error={form.error} />
    <DoneNote text={form.done} testId={`${name}-saved`} />
    {notice}
    {children}
    <SubmitActions
      testId={`${name}-submit`}
      busy={form.busy}
      busyText={busyText}
      onCancel={onCancel}
      disabled={disabled}
    >
      {submitText}
    </SubmitActions>
  </form>
);
