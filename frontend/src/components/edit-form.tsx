import type { FormEvent, ReactNode } from 'react';
import { DoneNote, ErrorAlert, SubmitActions } from './form-parts';

/** What `useCheckedSubmit` (lib/use-checked-submit.ts) answers: the submit, whether it runs, the alert, what it did. */
export interface EditFormState {
  submit: (event: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  error?: string;
  done?: string;
  /** A field changed: what the last change did no longer describes the form. */
  edited?: () => void;
}

interface EditFormProps {
  /** Names the form's parts: `{name}-heading`, and the test ids `{name}-error`, `{name}-saved`, `{name}-submit`. */
  name: string;
  /** The form's heading; without one, the page's heading names it. */
  title?: string;
  /** 3 for a form inside a section with a heading of its own (4 inside a part of one). @default 2 */
  level?: 2 | 3 | 4;
  /** A line under the heading saying what the form does. */
  intro?: ReactNode;
  form: EditFormState;
  /** Shown between the alert and the fields, e.g. a secret the change answered once. */
  notice?: ReactNode;
  submitText: ReactNode;
  busyText: string;
  /** A form that can be dismissed (a create form opened from a menu) has a Cancel. */
  onCancel?: () => void;
  /** The submit waits for something the form says (e.g. a rollout until a test run passed). @default false */
  disabled?: boolean;
  /**
   * A long form says what went wrong, or what the change did, next to its submit, where the person is, rather
   * than under its heading. @default false
   */
  long?: boolean;
  /** A card of its own, or (e.g. `create-form`) a part of the card it sits in. @default 'card create-form' */
  className?: string;
  testId?: string;
  id?: string;
  /** The fields. */
  children: ReactNode;
}

/**
 * Every create and edit form: its heading, the alert (the API's refusal, or the check's first message while each
 * field shows its own), what the change did ("Saved."), the fields and the submit (with Cancel where it can be
 * dismissed). Fields are checked before anything is sent (`useCheckedSubmit`), never by the browser's bubbles.
 */
export const EditForm = ({
  name,
  title,
  level = 2,
  intro,
  form,
  notice,
  submitText,
  busyText,
  onCancel,
  disabled,
  long = false,
  className = 'card create-form',
  testId,
  id,
  children,
}: EditFormProps) => {
  const Heading = (['h2', 'h3', 'h4'] as const)[level - 2]!;
  const outcome = (
    <>
      <ErrorAlert testId={`${name}-error`} error={form.error} />
      <DoneNote text={form.done} testId={`${name}-saved`} />
    </>
  );
  return (
    <form
      id={id}
      className={className}
      onSubmit={form.submit}
      onChange={form.edited}
      noValidate
      aria-labelledby={title ? `${name}-heading` : undefined}
      data-testid={testId}
    >
      {title && <Heading id={`${name}-heading`}>{title}</Heading>}
      {intro && <p className="muted small">{intro}</p>}
      {!long && outcome}
      {notice}
      {children}
      {long && outcome}
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
};
