import type { FormEvent, ReactNode } from 'react';
import type { RelationType } from '../../../../shared/relations/relation-types';
import { SubmitButton } from '../../components/form-parts';

/** One `<option>` per relation type, the type as its text. */
export const TypeOptions = ({ types }: { types: readonly RelationType[] }) =>
  types.map((type) => (
    <option key={type} value={type}>
      {type}
    </option>
  ));

/** The `id` of a field is also its test id. */
interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export const SelectField = ({ id, label, value, onChange, children }: FieldProps & { children: ReactNode }) => (
  <div className="field">
    <label htmlFor={id}>{label}</label>
    <select id={id} data-testid={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {children}
    </select>
  </div>
);

/** A typed object or user id: monospace, and no autocomplete or spelling fixes to change it. */
export const IdField = ({ id, label, value, onChange, placeholder }: FieldProps & { placeholder?: string }) => (
  <div className="field">
    <label htmlFor={id}>{label}</label>
    <input
      id={id}
      data-testid={id}
      className="mono"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete="off"
      spellCheck={false}
      placeholder={placeholder}
    />
  </div>
);

interface AddFormProps {
  /** The form's accessible name, e.g. "Add a member". */
  label: string;
  /** Prefix of the test ids: `${testId}-id` for the id field, `${testId}-submit` for the button. */
  testId: string;
  busy: boolean;
  submitText: string;
  onSubmit: () => void;
  /** Further fields, between the id and the button (e.g. the role). */
  children?: ReactNode;
}

type AddFormInput =
  | { idLabel: string; placeholder?: string; value: string; onChange: (value: string) => void; field?: undefined }
  /** A field of its own in place of the typed id (a picker by name). */
  | { field: ReactNode; idLabel?: undefined; placeholder?: undefined; value?: undefined; onChange?: undefined };

/** A one-line form that adds a relation to the object on screen: from a typed id, or a field given (a picker). */
export const AddForm = ({
  label,
  testId,
  idLabel,
  placeholder,
  value,
  onChange,
  field,
  busy,
  submitText,
  onSubmit,
  children,
}: AddFormProps & AddFormInput) => {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label={label}>
      {field ?? (
        <IdField
          id={`${testId}-id`}
          label={idLabel ?? ''}
          value={value ?? ''}
          onChange={onChange ?? (() => undefined)}
          placeholder={placeholder}
        />
      )}
      {children}
      <SubmitButton testId={`${testId}-submit`} busy={busy} busyText="Adding…">
        {submitText}
      </SubmitButton>
    </form>
  );
};
