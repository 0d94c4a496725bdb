import ipaddr from 'ipaddr.js';
import { MESSAGES } from '../../../shared/messages';

/**
 * Where webhooks may be sent (docs/integrations.md, "Safe targets"), per home:
 * - `public` (the cloud): `https://` only, and only to public unicast addresses: never a private, loopback, link-local
 *   (the metadata address 169.254.169.254 among them), shared (100.64/10), unique-local, multicast or unspecified one.
 * - `local` (one machine): `http://` too, and loopback and private addresses (the demo's receiver on localhost); still
 *   never link-local, the metadata address or the unspecified address.
 * A literal address is checked when the webhook is saved; every address is checked again when it is sent to, after
 * the name is resolved (the sender's connection filter), since a name can point anywhere and change.
 */
export type TargetPolicy = 'public' | 'local';
export const TARGET_POLICIES: readonly TargetPolicy[] = ['public', 'local'];

/** The variable that names the home's policy; unset means `public`, so a function that lost it sends nowhere private. */
export const WEBHOOK_TARGETS_ENV = 'WEBHOOK_TARGETS';

/** ipaddr.js's range names, as a person reads them. */
const RANGE_WORDS: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address (the cloud metadata service lives there)',
  uniqueLocal: 'a private (unique-local) address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'a translated address',
  rfc6052: 'a translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  benchmarking: 'a benchmarking address',
  amt: 'an AMT address',
  as112: 'an AS112 address',
  deprecated: 'a deprecated address',
  orchid2: 'an ORCHID address',
  discard: 'a discard-only address',
};

/** Ranges never sent to, in either home. */
const NEVER = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast']);
/** Ranges allowed on one machine. */
const LOCAL_ALLOWED = new Set(['unicast', 'loopback', 'private', 'uniqueLocal']);

/** Why an address may not be sent to under a policy, or undefined when it may. */
export const addressRefusal = (address: string, policy: TargetPolicy): string | undefined => {
  if (!ipaddr.isValid(address)) return undefined;
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  const allowed = policy === 'local' ? LOCAL_ALLOWED.has(range) && !NEVER.has(range) : range === 'unicast';
  return allowed ? undefined : (RANGE_WORDS[range] ?? `a ${range} address`);
};

/** A URL's host as a literal address, when it is one (`[::1]` without its brackets). */
const literalAddress = (hostname: string): string | undefined => {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : undefined;
};

/** What is wrong with a webhook's URL under the home's policy (the message names the field), or undefined. */
export const urlProblem = (url: string, policy: TargetPolicy): string | undefined => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MESSAGES.webhookUrlInvalid;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return MESSAGES.webhookUrlInvalid;
  if (policy === 'public' && parsed.protocol !== 'https:') return MESSAGES.webhookUrlHttpsOnly;
  if (parsed.username || parsed.password) return MESSAGES.webhookUrlCredentials;
  if (!parsed.hostname) return MESSAGES.webhookUrlInvalid;
  const address = literalAddress(parsed.hostname);
  if (address) {
    const why = addressRefusal(address, policy);
    if (why) return MESSAGES.webhookUrlAddress(address, why);
  }
  return undefined;
};
