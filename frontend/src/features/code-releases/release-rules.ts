import type { Rollout, RolloutTarget } from '../../../../shared/contracts/code-releases';

/** Adoption as staff read it: how many of the rollout's own devices report running the release. */
export const adoption = (counts: Rollout['counts']) => {
  const live = Math.max(counts.targeted - counts.superseded, 0);
  const percent = live === 0 ? 0 : Math.round((counts.adopted / live) * 100);
  return {
    percent,
    text: `${counts.adopted} of ${live} ${live === 1 ? 'device runs' : 'devices run'} it (${percent} %)`,
  };
};

/** What a rollout did not assign, in words (empty when it assigned every device it was given). */
export const skippedText = (skipped: Rollout['skipped']): string => {
  const parts = [
    skipped.otherProductLine && `${skipped.otherProductLine} of another product line`,
    skipped.retired && `${skipped.retired} retired`,
    skipped.unknown && `${skipped.unknown} unknown`,
  ].filter(Boolean);
  return parts.length ? `Not assigned: ${parts.join(', ')}.` : '';
};

/** Device ids typed one per line or separated by commas or spaces, each once. */
export const deviceIdsOf = (text: string): string[] => [...new Set(text.split(/[\s,;]+/).filter(Boolean))];

export type TargetKind = RolloutTarget['kind'];

export interface RolloutForm {
  kind: TargetKind;
  deviceIds: string;
  campaignId: string;
  organizationId: string;
  note: string;
}

export const EMPTY_ROLLOUT_FORM: RolloutForm = {
  kind: 'devices',
  deviceIds: '',
  campaignId: '',
  organizationId: '',
  note: '',
};

/** The request body of the rollout form. */
export const rolloutBody = (form: RolloutForm): { target: RolloutTarget; note?: string } => {
  const target: RolloutTarget =
    form.kind === 'devices'
      ? { kind: 'devices', deviceIds: deviceIdsOf(form.deviceIds) }
      : form.kind === 'campaign'
        ? { kind: 'campaign', campaignId: form.campaignId.trim() }
        : { kind: 'organization', organizationId: form.organizationId.trim() };
  return { target, ...(form.note.trim() ? { note: form.note.trim() } : {}) };
};

export const sizeText = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/** SHA-256 of a file in the browser, as hex: what the server compares with what it reads back. */
export const sha256Hex = async (file: Blob): Promise<string> => {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
};
