import type { Exclusion } from '../../../../shared/contracts/sensor-data-quality';
import { formatLocal, parseLocal } from './range-rules';

/*
 * The exclusion forms' rules (docs/data-quality.md "Screens"), the device panel's and the campaign's: a module of their
 * own, so the campaign's chunk shares nothing else of the device page's.
 */

/** A dragged range as the exclusion form's fields, to the minute (the end's minute counts whole: exclusionRange). */
export const exclusionFields = (from: number, to: number) => ({ from: formatLocal(from), to: formatLocal(to) });

/** The exclusion form's range as ms (the end's minute included), or what is wrong with it. */
export const exclusionRange = (fields: { from: string; to: string }): { from: number; to: number } | string => {
  const from = parseLocal(fields.from);
  const to = parseLocal(fields.to);
  if (from === undefined || to === undefined) return 'Choose both a start and an end';
  if (to < from) return 'to must not be before from';
  return { from, to: to + 59_999 };
};

/**
 * A campaign's active exclusions, one per id (the campaign's route answers one record per device, all under one id),
 * with how many devices hold it, newest first.
 */
export const campaignExclusionsOf = (items: readonly Exclusion[]) => {
  const byId = new Map<string, Exclusion & { devices: number }>();
  for (const item of items) {
    if (item.status !== 'active') continue;
    const seen = byId.get(item.id);
    if (seen) seen.devices += 1;
    else byId.set(item.id, { ...item, devices: 1 });
  }
  return [...byId.values()].sort((a, b) => b.created - a.created);
};
