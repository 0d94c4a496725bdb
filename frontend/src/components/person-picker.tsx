import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { isStaff } from '../../../shared/auth/groups';
import type { IdentityUser, PersonName } from '../../../shared/contracts/users';
import { errorMessage } from '../lib/error-message';
import { routeQuery } from '../lib/query';
import { useOptionalUser } from '../lib/session';
import './person.css';

/** What a picker chose: a person, or (where inviting is offered) an address to send an invitation to. */
export type PickedPerson = { kind: 'person'; id: string; label: string } | { kind: 'invite'; email: string };

interface Option {
  key: string;
  pick: PickedPerson;
  title: string;
  detail?: string;
}

/** One whole address, as the API's exact-e-mail look-up takes it. */
export const looksLikeEmail = (text: string) => /^[^\s@*%?,;]+@[^\s@*%?,;]+\.[^\s@.*%?,;]+$/.test(text.trim());

const nameOf = (person: { displayName?: string; givenName?: string; familyName?: string; name?: string }) =>
  person.displayName?.trim() ||
  person.name?.trim() ||
  [person.givenName, person.familyName].filter(Boolean).join(' ').trim() ||
  undefined;

const personOption = (person: PersonName | IdentityUser): Option => {
  const name = nameOf(person);
  const title = name ?? person.email ?? 'Unnamed person';
  return {
    key: person.id,
    pick: { kind: 'person', id: person.id, label: title },
    title,
    ...(name && person.email ? { detail: person.email } : {}),
  };
};

/** Waits for typing to pause before asking: one request per word, not per key. */
const useSettled = (text: string, ms = 300) => {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return settled;
};

/** Staff search the whole directory: by e-mail prefix (the Users listing) and by first (and last) name. */
const useStaffSearch = (text: string, enabled: boolean) => {
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const last = rest.join(' ') || '*';
  const byEmail = useQuery({
    ...routeQuery('users', 'listUsers', { query: { search: text.trim(), limit: 8 } }),
    enabled: enabled && text.trim().length >= 2,
  });
  const byName = useQuery({
    ...routeQuery('users', 'filterUsersByFirstLast', { params: { first, last } }),
    enabled: enabled && first.length >= 2 && !text.includes('@'),
  });
  const people = new Map<string, IdentityUser>();
  for (const person of [...(byEmail.data?.items ?? []), ...(byName.data?.items ?? [])]) people.set(person.id, person);
  return {
    options: [...people.values()].slice(0, 10).map(personOption),
    loading: byEmail.isFetching || byName.isFetching,
    error: byEmail.error ?? byName.error,
  };
};

/** Everyone else: one exact address, looked up once (its answer is cached, so it costs one look-up). */
const useExactLookup = (text: string, enabled: boolean) => {
  const email = text.trim().toLowerCase();
  const lookup = useQuery({
    ...routeQuery('users', 'findPersonByEmail', { body: { email } }),
    enabled: enabled && looksLikeEmail(email),
    staleTime: 5 * 60_000,
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  return { person: lookup.data?.person, answered: lookup.isSuccess, loading: lookup.isFetching, error: lookup.error };
};

export interface PersonPickerProps {
  /** The input's id, and the prefix of its test ids. */
  id: string;
  label: string;
  value: PickedPerson | undefined;
  onChange: (picked: PickedPerson | undefined) => void;
  /** Offer "Invite {address}" when no person the viewer may see has the typed address. */
  allowInvite?: boolean;
}

/**
 * A person, picked by name (staff, from the whole directory) or by their exact e-mail address (everyone else: the
 * directory cannot be listed, docs/users.md "Reaching a person by e-mail"). A combobox: type, move with the arrow
 * keys, choose with Enter, close with Escape.
 */
export const PersonPicker = ({ id, label, value, onChange, allowInvite = false }: PersonPickerProps) => {
  // Optional, not required: the pages it sits on are open to guests, and a sign-out must not break them while the
  // page changes (a picker that rendered once more after sign-out threw, and the page showed "could not load").
  const user = useOptionalUser();
  const staff = user !== undefined && isStaff(user.groups);
  const [text, setText] = useState(value?.kind === 'person' ? value.label : (value?.email ?? ''));
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const settled = useSettled(text);
  const chosen = value !== undefined;
  const search = useStaffSearch(settled, staff && open && !chosen);
  const lookup = useExactLookup(settled, !staff && open && !chosen);
  const listId = useId();
  const noteId = useId();

  useEffect(() => {
    if (value === undefined) return;
    setText(value.kind === 'person' ? value.label : value.email);
  }, [value]);

  const typedEmail = looksLikeEmail(settled) ? settled.trim().toLowerCase() : undefined;
  const options: Option[] = staff ? [...search.options] : lookup.person ? [personOption(lookup.person)] : [];
  const offerInvite =
    allowInvite && typedEmail !== undefined && !options.some((o) => o.detail === typedEmail || o.title === typedEmail);
  if (offerInvite && (staff ? !search.loading : lookup.answered)) {
    options.push({
      key: `invite:${typedEmail}`,
      pick: { kind: 'invite', email: typedEmail },
      title: `Invite ${typedEmail}`,
      detail: 'They get an e-mail and appear here once they accept',
    });
  }
  const loading = staff ? search.loading : lookup.loading;
  const failure = staff ? search.error : lookup.error;
  const shown = open && !chosen && options.length > 0;
  const current = Math.min(active, options.length - 1);

  const note = failure
    ? errorMessage(failure)
    : chosen
      ? undefined
      : loading
        ? 'Searching…'
        : staff
          ? settled.trim().length >= 2 && !options.length
            ? 'Nobody matches.'
            : 'Type a name or the start of an e-mail address.'
          : typedEmail && lookup.answered && !options.length
            ? 'Nobody you share a device, organization or campaign with has this address.'
            : 'Type their whole e-mail address.';

  const choose = (option: Option | undefined) => {
    if (!option) return;
    onChange(option.pick);
    setOpen(false);
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length) {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + options.length) % options.length);
      }
    } else if (event.key === 'Enter' && shown) {
      event.preventDefault();
      choose(options[current]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  if (!user) return null;
  return (
    <div className="field person-picker">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        data-testid={id}
        type="text"
        role="combobox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown ? `${listId}-${current}` : undefined}
        aria-describedby={note ? noteId : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={staff ? 'Name or e-mail' : 'name@example.com'}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
          if (value !== undefined) onChange(undefined);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={keyDown}
      />
      <div id={listId} role="listbox" aria-label={label} hidden={!shown} data-testid={`${id}-options`}>
        {shown &&
          options.map((option, index) => (
            <div
              key={option.key}
              tabIndex={-1}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              data-testid={`${id}-option`}
              // Chosen before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(option);
              }}
            >
              <span>{option.title}</span>
              {option.detail && <span className="person-option-email">{option.detail}</span>}
            </div>
          ))}
      </div>
      {note && (
        <p id={noteId} className="person-picker-note" data-testid={`${id}-note`} aria-live="polite">
          {note}
        </p>
      )}
    </div>
  );
};
