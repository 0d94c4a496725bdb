import { Link } from 'react-router-dom';
import { guardedKindOf, objectPath } from './relation-groups';

/**
 * An end of a relation, linked to its object's page when that kind of object has one; by its name, the id beside it,
 * when the name is known (lib/object-names).
 */
export const ObjectLink = ({ kind, id, name }: { kind: string | undefined; id: string; name?: string }) => {
  const guarded = kind && guardedKindOf(kind);
  const text = name ?? id;
  return (
    <>
      {guarded ? <Link to={objectPath(guarded, id)}>{text}</Link> : text}
      {name !== undefined && <span className="object-id">{id}</span>}
    </>
  );
};

/** A row's destructive action, named with its subject for screen readers ("Delete rel-1"). */
export const DangerButton = ({
  testId,
  action,
  subject,
  onClick,
  disabled,
}: {
  testId: string;
  action: string;
  subject: string;
  onClick: () => void;
  disabled: boolean;
}) => (
  <button
    type="button"
    className="danger"
    data-testid={testId}
    aria-label={`${action} ${subject}`}
    onClick={onClick}
    disabled={disabled}
  >
    {action}
  </button>
);
