import { randomBytes } from 'node:crypto';

/**
 * Stripe's wire protocol as the local Stripe server speaks it: form-encoded requests, errors in Stripe's shape,
 * ids with Stripe's prefixes, list envelopes and the search query language. No state here.
 */

export class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'api_error' | 'card_error',
    message: string,
    readonly extra: { code?: string; param?: string } = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, extra: { code?: string; param?: string } = {}) =>
  new StripeHttpError(400, 'invalid_request_error', message, extra);

/**
 * Stripe's `resource_missing`: `No such price: 'price_x'`. A 404 for the object the path names (`param` `id`); a 400
 * for one a parameter names (`customer`, `starting_after`, `items[0][price]`), as the request is then what is wrong.
 */
export const missing = (kind: string, id: string, param = 'id') =>
  new StripeHttpError(param === 'id' ? 404 : 400, 'invalid_request_error', `No such ${kind}: '${id}'`, {
    code: 'resource_missing',
    param,
  });

export const randomId = (prefix: string, length = 14) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return prefix + [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
};

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys for nesting
 * (`metadata[plan]=pro`, `expand[0]=x`). Index-only children become arrays.
 */
export const parseForm = (body: string): FormObject => {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const [head, ...rest] = key.split('[');
    const parts = [head!, ...rest.map((part) => part.replace(/]$/, ''))];
    let node = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else {
        const next = node[part];
        node[part] = typeof next === 'object' && !Array.isArray(next) ? next : {};
        node = node[part] as FormObject;
      }
    });
  }
  const arrays = (value: FormValue): FormValue => {
    if (typeof value === 'string' || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    const indexed = keys.length > 0 && keys.every((k) => k === '' || /^\d+$/.test(k));
    if (indexed) return keys.map((k) => arrays(value[k]!));
    return Object.fromEntries(keys.map((k) => [k, arrays(value[k]!)]));
  };
  return arrays(root) as FormObject;
};

/** A GET's query string read as a form (Stripe encodes `expand[]`, `created[gte]` the same way there). */
export const queryForm = (query: URLSearchParams): FormObject => parseForm(query.toString());

export const stringField = (form: FormObject, name: string): string | null => {
  const value = form[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid(`Invalid string: ${name}`, { param: name });
  return value;
};

export const requiredString = (form: FormObject, name: string): string => {
  const value = stringField(form, name);
  if (value === null) throw invalid(`Missing required param: ${name}.`, { param: name });
  return value;
};

export const intField = (form: FormObject, name: string, { min = 0 } = {}): number | null => {
  const value = stringField(form, name);
  if (value === null) return null;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw invalid(`Invalid integer: ${value}`, { param: name });
  return number;
};

export const boolField = (form: FormObject, name: string): boolean | null => {
  const value = stringField(form, name);
  if (value === null) return null;
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, { param: name });
  return value === 'true';
};

export const objectField = (form: FormObject, name: string): FormObject | null => {
  const value = form[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid object', { param: name });
  return value;
};

export const arrayField = (form: FormObject, name: string): FormObject[] => {
  const value = form[name];
  if (value === undefined || value === '') return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || Array.isArray(v))) {
    throw invalid('Invalid array', { param: name });
  }
  return value as FormObject[];
};

export const stringList = (form: FormObject, name: string): string[] => {
  const value = form[name];
  if (value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.some((v) => typeof v !== 'string')) throw invalid('Invalid array', { param: name });
  return list as string[];
};

/**
 * Metadata as Stripe takes it: on create the given keys; on update merged into `current`, a key set to "" removed,
 * and `metadata=""` clearing all.
 */
export const metadataOf = (form: FormObject, current: Record<string, string> = {}): Record<string, string> => {
  const value = form.metadata;
  if (value === undefined) return current;
  if (value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid object', { param: 'metadata' });
  const entries = Object.entries(value);
  if (entries.some(([, v]) => typeof v !== 'string')) throw invalid('Invalid metadata value', { param: 'metadata' });
  const merged: Record<string, string> = { ...current };
  for (const [key, v] of entries as [string, string][]) {
    if (v === '') delete merged[key];
    else merged[key] = v;
  }
  return merged;
};

export const limitOf = (form: FormObject): number => {
  const raw = stringField(form, 'limit');
  if (raw === null) return 10;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalid('Invalid integer: limit must be between 1 and 100', { param: 'limit' });
  }
  return limit;
};

/** A list page in Stripe's envelope: `found` newest first, cut by `starting_after`/`ending_before` and `limit`. */
export const pageOf = <T extends { id: string }>(found: T[], form: FormObject, url: string, kind: string) => {
  const limit = limitOf(form);
  const after = stringField(form, 'starting_after');
  const before = stringField(form, 'ending_before');
  let rest = found;
  if (after) {
    const index = found.findIndex((item) => item.id === after);
    if (index < 0) throw missing(kind, after, 'starting_after');
    rest = found.slice(index + 1);
  } else if (before) {
    const index = found.findIndex((item) => item.id === before);
    if (index < 0) throw missing(kind, before, 'ending_before');
    rest = found.slice(Math.max(0, index - limit), index);
    return { object: 'list' as const, data: rest, has_more: index - limit > 0, url };
  }
  return { object: 'list' as const, data: rest.slice(0, limit), has_more: rest.length > limit, url };
};

/** One clause of Stripe's search query language: `field:'value'`, `metadata['key']:'value'`, `-field~'x'`, `n>3`. */
export interface SearchClause {
  field: string;
  /** Set for `metadata['key']`. */
  metadataKey?: string;
  operator: ':' | '~' | '>' | '<' | '>=' | '<=';
  value: string;
  negated: boolean;
}

export interface SearchQuery {
  clauses: SearchClause[];
  /** How the clauses combine; Stripe does not allow AND and OR in one query. */
  join: 'AND' | 'OR';
}

const CLAUSE =
  /^\s*(-?)([a-z_]+)(?:\[\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\])?\s*(:|~|>=|<=|>|<)\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?[\d.]+|null))/;
const unquote = (text: string) => text.replace(/\\(.)/g, '$1');

/** Parses a search query; anything it does not understand is a 400 naming the query, never an empty result. */
export const parseSearchQuery = (query: string): SearchQuery => {
  const clauses: SearchClause[] = [];
  const joins = new Set<string>();
  let rest = query;
  for (;;) {
    const match = CLAUSE.exec(rest);
    if (!match) throw invalid(`The local Stripe server could not parse the search query: ${query}`, { param: 'query' });
    const [whole, negated, field, mq1, mq2, operator, v1, v2, v3] = match;
    const metadataKey = mq1 ?? mq2;
    if (metadataKey !== undefined && field !== 'metadata') {
      throw invalid(`Only metadata takes a key in brackets: ${query}`, { param: 'query' });
    }
    clauses.push({
      field: field!,
      ...(metadataKey !== undefined ? { metadataKey: unquote(metadataKey) } : {}),
      operator: operator as SearchClause['operator'],
      value: v1 !== undefined ? unquote(v1) : v2 !== undefined ? unquote(v2) : v3!,
      negated: negated === '-',
    });
    rest = rest.slice(whole.length);
    if (/^\s*$/.test(rest)) break;
    const join = /^\s+(AND|OR)\s+/.exec(rest);
    if (!join) throw invalid(`The local Stripe server could not parse the search query: ${query}`, { param: 'query' });
    joins.add(join[1]!);
    rest = rest.slice(join[0].length);
  }
  if (joins.size > 1) throw invalid('Search queries cannot mix AND and OR.', { param: 'query' });
  return { clauses, join: joins.has('OR') ? 'OR' : 'AND' };
};

/** The fields a resource can be searched by: each answers the field's value (a string, number or boolean). */
export type SearchFields<T> = Record<string, (item: T) => string | number | boolean | null | undefined>;

/**
 * Applies a parsed query. `:` is an exact match ignoring case (Stripe's), `~` a substring (Stripe requires 3
 * characters), comparisons numeric. A field the resource is not searchable by is a 400.
 */
export const searchMatcher = <T extends { metadata: Record<string, string> | null }>(
  query: SearchQuery,
  fields: SearchFields<T>,
) => {
  for (const clause of query.clauses) {
    if (clause.field !== 'metadata' && !fields[clause.field]) {
      throw invalid(
        `The local Stripe server cannot search by ${clause.field}; it searches by ${['metadata', ...Object.keys(fields)].join(', ')}.`,
        { param: 'query' },
      );
    }
    if (clause.field === 'metadata' && clause.metadataKey === undefined) {
      throw invalid("Search metadata as metadata['key']:'value'.", { param: 'query' });
    }
    if (clause.operator === '~' && clause.value.length < 3) {
      throw invalid('A substring search (~) needs at least 3 characters.', { param: 'query' });
    }
  }
  const test = (clause: SearchClause, item: T): boolean => {
    const raw =
      clause.field === 'metadata' ? item.metadata?.[clause.metadataKey!] : (fields[clause.field]!(item) ?? undefined);
    if (raw === undefined || raw === null) return clause.value === 'null' && clause.operator === ':';
    const text = String(raw).toLowerCase();
    const wanted = clause.value.toLowerCase();
    switch (clause.operator) {
      case ':':
        return text === wanted;
      case '~':
        return text.includes(wanted);
      case '>':
        return Number(raw) > Number(clause.value);
      case '<':
        return Number(raw) < Number(clause.value);
      case '>=':
        return Number(raw) >= Number(clause.value);
      default:
        return Number(raw) <= Number(clause.value);
    }
  };
  return (item: T) => {
    const results = query.clauses.map((clause) => test(clause, item) !== clause.negated);
    return query.join === 'AND' ? results.every(Boolean) : results.some(Boolean);
  };
};

/** A search page in Stripe's envelope (`page` paging is not implemented: local data is small). */
export const searchResultOf = <T>(found: T[], form: FormObject, url: string) => {
  const limit = limitOf(form);
  return {
    object: 'search_result' as const,
    data: found.slice(0, limit),
    has_more: found.length > limit,
    next_page: null,
    url,
  };
};
