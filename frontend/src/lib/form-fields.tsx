import type { ReactNode } from 'react';

interface FieldFrameProps {
  /** The input's id; also its test id, and `${id}-error` is its message's. */
  id: string;
  label: string;
  /** The field's validation message, shown under it and announced with it. */
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** A label, the control, and the field's own message under it (wired with aria-describedby by the control). */
export const FieldFrame = ({ id, label, error, hint, children }: FieldFrameProps) => (
  <div className={error ? 'field field-invalid' : 'field'}>
    <label htmlFor={id}>{label}</label>
    {children}
    {hint && <span className="muted small">{hint}</span>}
    {error && (
      <span className="field-error" id={`${id}-error`} data-testid={`${id}-error`}>
        {error}
      </span>
    )}
  </div>
);

/** What a control needs to point at its message. */
export const invalidProps = (id: string, error: string | undefined) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  type?: 'text' | 'email' | 'url' | 'number' | 'date' | 'datetime-local' | 'password';
  placeholder?: string;
  /** An id, a code or JSON: monospace, and no spelling fixes to change it. */
  mono?: boolean;
  step?: string;
  multiline?: boolean;
  /** A textarea's height in lines. @default 3 */
  rows?: number;
  /** What the browser may fill in (`current-password`, `email`, `one-time-code`…). @default 'off' */
  autoComplete?: string;
  inputMode?: 'numeric' | 'email' | 'text';
  disabled?: boolean;
}

export const TextField = ({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  placeholder,
  mono,
  step,
  multiline,
  rows = 3,
  autoComplete = 'off',
  inputMode,
  disabled,
}: TextFieldProps) => (
  <FieldFrame id={id} label={label} error={error} hint={hint}>
    {multiline ? (
      <textarea
        id={id}
        data-testid={id}
        className={mono ? undefined : 'prose'}
        value={value}
        rows={rows}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        spellCheck={mono ? false : undefined}
        disabled={disabled}
        {...invalidProps(id, error)}
      />
    ) : (
      <input
        id={id}
        data-testid={id}
        type={type}
        className={mono ? 'mono' : undefined}
        value={value}
        step={step}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        autoComplete={autoComplete}
        inputMode={inputMode}
        spellCheck={mono ? false : undefined}
        disabled={disabled}
        {...invalidProps(id, error)}
      />
    )}
  </FieldFrame>
);

interface ChoiceFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
  error?: string;
  hint?: ReactNode;
}

export const ChoiceField = <T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  error,
  hint,
}: ChoiceFieldProps<T>) => (
  <FieldFrame id={id} label={label} error={error} hint={hint}>
    <select
      id={id}
      data-testid={id}
      value={value}
      onChange={(e) => onChange(e.target.value as T)}
      {...invalidProps(id, error)}
    >
      {options.map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </select>
  </FieldFrame>
);

/**
 * The props a field of a form's state takes, by the field's name: its id (`{prefix}-{name}`, also its test id), its
 * value, its change and its message. One line per field instead of four, so a form lists what differs (label, hint).
 */
export const fieldBinder =
  <F extends object>(
    prefix: string,
    values: F,
    set: <K extends keyof F>(key: K, value: F[K]) => void,
    errors: Readonly<Record<string, string | undefined>>,
  ) =>
  <K extends keyof F & string>(name: K) => ({
    id: `${prefix}-${name}`,
    value: values[name],
    onChange: (value: F[K]) => set(name, value),
    error: errors[name],
  });

/** A checkbox with its label after it. */
export const CheckField = ({
  testId,
  checked,
  onChange,
  children,
}: {
  testId: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) => (
  <label className="check">
    <input type="checkbox" data-testid={testId} checked={checked} onChange={(e) => onChange(e.target.checked)} />
    {children}
  </label>
);

/** A list with `item` in it or not, as a checkbox of it says; the list's order is kept. */
export const toggled = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? (list.includes(item) ? [...list] : [...list, item]) : list.filter((other) => other !== item);
