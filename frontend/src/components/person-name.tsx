import { Link } from 'react-router-dom';
import { isStaff } from '../../../shared/auth/groups';
import { personLabel, usePersonName } from '../lib/person-names';
import { useOptionalUser } from '../lib/session';
import './person.css';

/** Where a person's page is: the admin page for staff, the profile for everyone else. */
export const personPath = (id: string, staff: boolean) =>
  staff ? `/admin/people/${encodeURIComponent(id)}` : `/dashboard/people/${encodeURIComponent(id)}`;

export interface PersonNameProps {
  id: string;
  /** Show the e-mail beside the name where the viewer may see it. @default true */
  withEmail?: boolean;
  testId?: string;
  /** What is shown for a person the viewer may not see. @default 'Someone' */
  unseen?: string;
}

/**
 * A person as the viewer may see them: their name linked to their page, and their e-mail where the viewer may see
 * it; a neutral word ("Someone") for a person the viewer may not see. Never their id. The names of one screen are
 * read in one request (lib/person-names.ts).
 */
export const PersonName = ({ id, withEmail = true, testId, unseen }: PersonNameProps) => {
  const user = useOptionalUser();
  const { name, loading } = usePersonName(id);
  const label = personLabel(name, loading, unseen);
  const self = user?.id === id;
  return (
    <span className="person-name" data-testid={testId} data-person={id} aria-busy={loading || undefined}>
      {name ? <Link to={personPath(id, Boolean(user && isStaff(user.groups)) && !self)}>{label}</Link> : label}
      {withEmail && name?.name && name.email && <span className="person-email">{name.email}</span>}
    </span>
  );
};
