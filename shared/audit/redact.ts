/**
 * What never reaches the audit log (docs/audit.md, "Secrets"): the value of any field whose name says it holds a
 * secret (passwords, codes, tokens, secrets, keys), and any string that looks like one of the platform's or its
 * providers' credentials, whatever field it sits in. The rule is by name and by shape, so a field added later is
 * covered without anyone remembering to list it; `redact.test.ts` walks every audited route's schemas to prove it.
 */

export const REDACTED = '[redacted]';

/**
 * Field names that hold a secret. `…Id` names the thing, not its secret (`credentialId`, `keyId`), so they stay;
 * `code` alone or at a name's end (`claimCode`, `confirmationCode`) is a secret.
 */
const SECRET_NAME =
  /pass(word|phrase)?|secret|token|api[-_]?key|authorization|cookie|private[-_]?key|(^|[a-z_-])code$/i;
const ID_NAME = /(id|ids)$/i;

export const isSecretName = (name: string): boolean => !ID_NAME.test(name) && SECRET_NAME.test(name);

/**
 * Values shaped like a credential: a device credential or an API key with its secret (`dc_{id}.{secret}`,
 * `ak_{id}.{secret}`: the id alone, before the dot, is not a secret), Stripe keys and webhook secrets (`sk_`, `rk_`,
 * `whsec_`), and JSON web tokens (three base64url parts, the first `eyJ`).
 */
const SECRET_VALUE =
  /^(dc_|ak_)[\w-]+\.[\w-]{8,}$|^(sk_(live|test)_|rk_(live|test)_|whsec_)\S{8,}$|^eyJ[\w-]+\.[\w-]+\.[\w-]*$/;

export const isSecretValue = (value: string): boolean => SECRET_VALUE.test(value.trim());

/** Strings longer than this are cut (a notification's body can be 20,000 characters): the log keeps their start. */
export const MAX_STRING = 2_000;
/** Deeper than this, a value is summarised: no audited route's data is this deep. */
const MAX_DEPTH = 12;
/** Entries in one array beyond this are counted, not kept. */
const MAX_ITEMS = 200;

const cut = (text: string): string =>
  text.length <= MAX_STRING ? text : `${text.slice(0, MAX_STRING)}… [${text.length - MAX_STRING} more characters]`;

/** A copy of `value` fit for the audit log: secrets replaced by `[redacted]`, long strings and arrays cut. */
export const redact = (value: unknown, depth = 0): unknown => {
  if (typeof value === 'string') return isSecretValue(value) ? REDACTED : cut(value);
  if (value === null || typeof value !== 'object') {
    // JSON has no undefined, NaN or functions: they are left out, as JSON.stringify would.
    return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `[${value.length - MAX_ITEMS} more]`] : kept;
  }
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === undefined || typeof field === 'function') continue;
    copy[name] = isSecretName(name) && field !== null && field !== '' ? REDACTED : redact(field, depth + 1);
  }
  return copy;
};
