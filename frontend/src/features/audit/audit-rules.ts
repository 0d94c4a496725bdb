import type { AuditEntry, AuditSearch } from '../../../../shared/audit/audit-entry';

/** One line of an entry's change: a field, what it was and what it became (absent: it did not exist). */
export interface DiffRow {
  path: string;
  before?: string;
  after?: string;
  kind: 'added' | 'removed' | 'changed';
}

/** A change of more fields than this shows its first ones and says how many more. */
export const MAX_DIFF_ROWS = 40;

/** Fields whose number is a time: shown as a date, not as milliseconds. */
const TIME_FIELD = /(^|\.)(time|created|updated|claimed|retired|lastSeen|lastUsed|startsAt|endsAt|\w+At)$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Lists of plain values read best on one line ("Employees, Approved_users"). */
const isFlatList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object');

const formatTime = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A leaf as a person reads it. */
export const leafText = (path: string, value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && TIME_FIELD.test(path) && value > 1e12 && value < 1e13) return formatTime(value);
  if (isFlatList(value)) return value.length === 0 ? '(none)' : value.map((item) => String(item)).join(', ');
  if (isPlainObject(value) && Object.keys(value).length === 0) return '(empty)';
  return JSON.stringify(value);
};

const isNested = (value: unknown): value is Record<string, unknown> | unknown[] =>
  isPlainObject(value) || (Array.isArray(value) && !isFlatList(value));

const childPath = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

const childrenOf = (value: Record<string, unknown> | unknown[]): [string | number, unknown][] =>
  Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);

/**
 * What changed between `before` and `after`, field by field: only the fields that differ, in the order the target
 * shows them. A create has no before (every field added), a delete no after (every field removed); a field whose
 * shape changed (text that became a document) is one row with both values whole.
 */
export const diffOf = (before: unknown, after: unknown): DiffRow[] => {
  const rows: DiffRow[] = [];
  const walk = (path: string, was: unknown, is: unknown) => {
    if (was === undefined && is === undefined) return;
    if (was !== undefined && is !== undefined && JSON.stringify(was) === JSON.stringify(is)) return;
    const bothNested = isNested(was) && isNested(is) && Array.isArray(was) === Array.isArray(is);
    if (bothNested || (was === undefined && isNested(is)) || (is === undefined && isNested(was))) {
      const keys = new Map<string | number, true>();
      for (const [key] of childrenOf((is ?? was) as Record<string, unknown>)) keys.set(key, true);
      if (is !== undefined && was !== undefined)
        for (const [key] of childrenOf(was as Record<string, unknown>)) keys.set(key, true);
      const read = (value: unknown, key: string | number) =>
        value === undefined ? undefined : (value as Record<string | number, unknown>)[key];
      if (keys.size === 0) {
        rows.push({ path: path || '(value)', ...textsOf(path, was, is) });
        return;
      }
      for (const key of keys.keys()) walk(childPath(path, key), read(was, key), read(is, key));
      return;
    }
    rows.push({ path: path || '(value)', ...textsOf(path, was, is) });
  };
  walk('', before, after);
  return rows;
};

const textsOf = (path: string, was: unknown, is: unknown): Omit<DiffRow, 'path'> => ({
  ...(was !== undefined ? { before: leafText(path, was) } : {}),
  ...(is !== undefined ? { after: leafText(path, is) } : {}),
  kind: was !== undefined && is !== undefined ? 'changed' : is !== undefined ? 'added' : 'removed',
});

/** An entry's time as a person reads it. */
export const entryTime = (entry: Pick<AuditEntry, 'time'>) => formatTime(entry.time);

/** What the entry says happened, in words, when there is no change to show. */
export const outcomeText = (entry: AuditEntry): string | undefined => {
  if (entry.outcome === 'unknown') {
    return 'The outcome was not recorded: the change may or may not have happened (see docs/audit.md).';
  }
  if (entry.outcome === 'failed')
    return `Refused or failed (${entry.status ?? '?'}): ${entry.error ?? 'no reason given'}`;
  return undefined;
};

/** Where the admin area shows a target of this kind, when it has a page. */
const TARGET_PAGES: Record<string, string> = {
  user: '/admin/people/',
  device: '/admin/devices/',
  organization: '/admin/organizations/',
  campaign: '/admin/campaigns/',
  notification: '/admin/notifications/',
};

export const targetPath = (target: AuditEntry['target']): string | undefined => {
  const base = TARGET_PAGES[target.kind];
  // A target of several ids (an e-mail to many, a checkout of devices) has no one page.
  return base && target.id && !target.id.includes(', ') ? `${base}${encodeURIComponent(target.id)}` : undefined;
};

/** The form's fields: text as typed, times as the `datetime-local` control holds them (local time). */
export interface AuditForm {
  actor: string;
  target: string;
  action: string;
  from: string;
  to: string;
}

export const EMPTY_FORM: AuditForm = { actor: '', target: '', action: '', from: '', to: '' };

const FIELDS = ['actor', 'target', 'action', 'from', 'to'] as const;

/** The search lives in the address (`?actor=…&from=2026-11-18T09:00`), so a link to it can be shared. */
export const formFromParams = (params: URLSearchParams): AuditForm =>
  Object.fromEntries(FIELDS.map((field) => [field, params.get(field) ?? ''])) as unknown as AuditForm;

export const formToParams = (form: AuditForm): Record<string, string> =>
  Object.fromEntries(FIELDS.filter((field) => form[field].trim()).map((field) => [field, form[field].trim()]));

/** A `datetime-local` value (local time) in milliseconds, or undefined when empty or not a time. */
export const localTimeMs = (text: string): number | undefined => {
  if (!text) return undefined;
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The API's search from the form, once the actor is an id (an e-mail is looked up first): a refusal names the field
 * a person must fix.
 */
export const searchOf = (form: AuditForm, actorId: string | undefined): { search: AuditSearch } | { error: string } => {
  const from = localTimeMs(form.from);
  const to = localTimeMs(form.to);
  if (form.from && from === undefined) return { error: '"From" is not a date and time' };
  if (form.to && to === undefined) return { error: '"To" is not a date and time' };
  if (from !== undefined && to !== undefined && from >= to) return { error: '"From" must be before "To"' };
  return {
    search: {
      ...(actorId ? { actor: actorId } : {}),
      ...(form.target.trim() ? { target: form.target.trim() } : {}),
      ...(form.action ? { action: form.action } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    },
  };
};

/** An actor typed as an e-mail is looked up; anything else is taken as a person's id. */
export const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim());
