import type { AlertTarget } from '../../../shared/contracts/alerts';
import { type DeviceRule, PRESENCE_WATCH, type StoredRule } from './alert-model';

/** Where a device's rules come from: its own, its campaigns' and its organization's targets, and their generation. */
export interface RuleSource {
  /** The enabled rules of these targets. */
  enabledOf: (targets: readonly AlertTarget[]) => Promise<StoredRule[]>;
  /**
   * Whether a webhook of these targets takes device.online or device.offline (the device's presence is then watched
   * like a rule, decision 105). Absent: presence is nobody's here.
   */
  watchesPresence?: (targets: readonly AlertTarget[]) => Promise<boolean>;
  /** The campaigns and organizations that hold the device (their rules watch it too). */
  holders: (deviceId: string) => Promise<{ campaigns: string[]; organizations: string[] }>;
  /** Moves with every rule (or presence webhook) created, changed or deleted anywhere. */
  generation: () => Promise<number>;
}

export interface DeviceRulesOptions {
  source: RuleSource;
  now: () => number;
  /**
   * How often an instance asks whether any rule changed (one small read, whatever the number of devices): a new or
   * changed rule applies to readings from at most this long after it was saved.
   * @default 1_000 ms
   */
  checkEveryMs?: number;
  /**
   * How long a device's rules are kept at most: what no rule change moves (a device joining a campaign or an
   * organization) applies after at most this long. @default 5 minutes
   */
  maxAgeMs?: number;
  /** Devices kept per instance; the oldest go first. @default 20,000 */
  maxEntries?: number;
}

/**
 * Each device's rules, cached per instance (docs/decisions/050-alert-state-per-device.md): a device without a rule costs
 * ingest one cache look-up. The whole cache goes when the rules' generation moves (checked at most every
 * `checkEveryMs`, by one read shared by every device), and an entry after `maxAgeMs`.
 */
export const createDeviceRules = ({
  source,
  now,
  checkEveryMs = 1_000,
  maxAgeMs = 5 * 60_000,
  maxEntries = 20_000,
}: DeviceRulesOptions) => {
  const entries = new Map<string, { rules: DeviceRule[]; loadedAt: number }>();
  let generation: number | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | undefined;

  const checkGeneration = async (force = false) => {
    if (!force && now() - checkedAt < checkEveryMs) return;
    checking ??= (async () => {
      try {
        const current = await source.generation();
        if (current !== generation) entries.clear();
        generation = current;
        checkedAt = now();
      } finally {
        checking = undefined;
      }
    })();
    await checking;
  };

  /** The rules that watch a device (and its presence, while watched), read now (no cache): a miss's. */
  const lookUp = async (deviceId: string): Promise<DeviceRule[]> => {
    const { campaigns, organizations } = await source.holders(deviceId);
    const targets: AlertTarget[] = [
      { kind: 'device', id: deviceId },
      ...campaigns.map((id) => ({ kind: 'campaign' as const, id })),
      ...organizations.map((id) => ({ kind: 'organization' as const, id })),
    ];
    const [rules, presence] = await Promise.all([
      source.enabledOf(targets),
      source.watchesPresence?.(targets) ?? false,
    ]);
    return presence ? [...rules, PRESENCE_WATCH] : rules;
  };

  return {
    rulesOf: async (deviceId: string): Promise<DeviceRule[]> => {
      await checkGeneration();
      const entry = entries.get(deviceId);
      if (entry && now() - entry.loadedAt < maxAgeMs) return entry.rules;
      const rules = await lookUp(deviceId);
      entries.delete(deviceId);
      entries.set(deviceId, { rules, loadedAt: now() });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return rules;
    },
    lookUp,
    /**
     * Asks for the generation now, whatever the last check: the sweep does at the start of each run, so a rule changed
     * before the run began is seen by it (the devices such a change made due are looked at with their rules as they are).
     */
    refresh: () => checkGeneration(true),
  };
};

export type DeviceRules = ReturnType<typeof createDeviceRules>;
