import { useState } from 'react';

/** An object a person may pick: its id and the name shown for it. */
export interface PickableObject {
  id: string;
  name: string;
}

const OTHER = '__other__';

interface ObjectPickerProps {
  /** The select's id and test id; the id field of "Another id…" is `${id}-other`. */
  id: string;
  label: string;
  /** The picked object's id ('' for none). */
  value: string;
  onChange: (id: string) => void;
  options: readonly PickableObject[];
  /** Shown as the first, empty choice. @default 'Choose…' */
  placeholder?: string;
  loading?: boolean;
}

/**
 * Pick a device, organization or campaign by name (a native select: type-ahead, keyboard and screen readers work as
 * everywhere, and a phone shows its own picker). The id follows the name, to tell apart two of the same name. An
 * object that is not listed (beyond the first page, or reached otherwise) can still be given by id.
 */
export const ObjectPicker = ({ id, label, value, onChange, options, placeholder, loading }: ObjectPickerProps) => {
  const [typing, setTyping] = useState(false);
  const listed = options.some((option) => option.id === value);
  const other = typing || (value !== '' && !listed && !loading);
  const sorted = [...options].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return (
    <div className="field object-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        data-testid={id}
        value={other ? OTHER : value}
        onChange={(event) => {
          const next = event.target.value;
          setTyping(next === OTHER);
          onChange(next === OTHER ? '' : next);
        }}
      >
        <option value="">{loading ? 'Loading…' : (placeholder ?? 'Choose…')}</option>
        {sorted.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name === option.id ? option.id : `${option.name} (${option.id})`}
          </option>
        ))}
        <option value={OTHER}>Another id…</option>
      </select>
      {other && (
        <input
          id={`${id}-other`}
          data-testid={`${id}-other`}
          aria-label={`${label}: id`}
          className="mono"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder="id"
        />
      )}
    </div>
  );
};
