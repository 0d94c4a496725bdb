import {
  DEFAULT_ABORT,
  DEFAULT_STAGES,
  type DeviceUpdateState,
  FINISHED_STATES,
  HALT_CONFIDENCE_PERCENT,
} from '../../../../shared/code-releases/rollout-rules';
import type { Rollout, RolloutTarget } from '../../../../shared/contracts/code-releases';

/** Devices report, and a preparing rollout assigns, while a person watches: a rollout shown is read again this often. */
export const WATCH_MS = 5_000;

/** Adoption as staff read it: how many of the rollout's own devices report running the release. */
export const adoption = (counts: Rollout['counts']) => {
  const live = Math.max(counts.targeted - counts.superseded, 0);
  const percent = live === 0 ? 0 : Math.round((counts.adopted / live) * 100);
  return {
    percent,
    text: `${counts.adopted.toLocaleString('en')} of ${live.toLocaleString('en')} ${live === 1 ? 'device runs' : 'devices run'} it (${percent} %)`,
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

/** One stage as the form holds it: what a person typed, under a key that stays with the row when others go. */
export interface StageRow {
  key: string;
  name: string;
  percent: string;
  soakHours: string;
  /** Devices named for the stage (a canary a person picks). */
  deviceIds: string;
}

export interface RolloutForm {
  kind: TargetKind;
  deviceIds: string;
  campaignId: string;
  organizationId: string;
  note: string;
  stages: StageRow[];
  failureThresholdPercent: string;
  minFinished: string;
  timeoutHours: string;
}

const HOUR_SECONDS = 3_600;

let rows = 0;
/** A stage row's key: unique within the page's life. */
export const stageRowKey = () => {
  rows += 1;
  return `stage-${rows}`;
};

/** The default stages, as rows (the API applies the same ones when none are sent). */
export const defaultStageRows = (): StageRow[] =>
  DEFAULT_STAGES.map((stage) => ({
    key: stageRowKey(),
    name: stage.name,
    percent: String(stage.percent),
    soakHours: String(stage.soakSeconds / HOUR_SECONDS),
    deviceIds: '',
  }));

export const EMPTY_ROLLOUT_FORM: RolloutForm = {
  kind: 'devices',
  deviceIds: '',
  campaignId: '',
  organizationId: '',
  note: '',
  stages: defaultStageRows(),
  failureThresholdPercent: String(DEFAULT_ABORT.failureThresholdPercent),
  minFinished: String(DEFAULT_ABORT.minFinished),
  timeoutHours: String(DEFAULT_ABORT.timeoutSeconds / HOUR_SECONDS),
};

/** A number as typed; what is not one stays NaN, which the contract's check names ("… must be a number"). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/** The request body of the rollout form: its target, its stages (hours as seconds) and its abort criteria. */
export const rolloutBody = (
  form: RolloutForm,
): {
  target: RolloutTarget;
  note?: string;
  stages: { name?: string; percent: number; deviceIds?: string[]; soakSeconds: number }[];
  abort: { failureThresholdPercent: number; minFinished: number; timeoutSeconds: number };
} => {
  const target: RolloutTarget =
    form.kind === 'devices'
      ? { kind: 'devices', deviceIds: deviceIdsOf(form.deviceIds) }
      : form.kind === 'campaign'
        ? { kind: 'campaign', campaignId: form.campaignId.trim() }
        : { kind: 'organization', organizationId: form.organizationId.trim() };
  return {
    target,
    ...(form.note.trim() ? { note: form.note.trim() } : {}),
    stages: form.stages.map((row) => ({
      ...(row.name.trim() ? { name: row.name.trim() } : {}),
      percent: numberOf(row.percent),
      ...(deviceIdsOf(row.deviceIds).length ? { deviceIds: deviceIdsOf(row.deviceIds) } : {}),
      soakSeconds: Math.round(numberOf(row.soakHours) * HOUR_SECONDS),
    })),
    abort: {
      failureThresholdPercent: numberOf(form.failureThresholdPercent),
      minFinished: numberOf(form.minFinished),
      timeoutSeconds: Math.round(numberOf(form.timeoutHours) * HOUR_SECONDS),
    },
  };
};

/** A duration in seconds as a person reads it: "24 h", "90 min", "no soak". */
export const durationText = (seconds: number): string =>
  seconds === 0
    ? 'no soak'
    : seconds % HOUR_SECONDS === 0
      ? `${seconds / HOUR_SECONDS} h`
      : seconds >= HOUR_SECONDS
        ? `${(seconds / HOUR_SECONDS).toFixed(1)} h`
        : `${Math.round(seconds / 60)} min`;

/** The stages in one line: "Canary (1 %) → 5 % → 25 % → Everyone (100 %), 24 h soak each". */
export const stagesText = (stages: readonly { name: string; percent: number; soakSeconds: number }[]): string => {
  const names = stages.map((stage) =>
    stage.name === `${stage.percent} %` ? stage.name : `${stage.name} (${stage.percent} %)`,
  );
  const soaks = [...new Set(stages.map((stage) => stage.soakSeconds))];
  return `${names.join(' → ')}${soaks.length === 1 ? `, ${durationText(soaks[0]!)} each` : ''}`;
};

/**
 * Where one stage stands: done (every later one started, or the rollout completed), running, or waiting. A preparing
 * rollout's stages all wait: its first starts only once every device is assigned.
 */
export const stageStatus = (rollout: Rollout, index: number): 'done' | 'current' | 'waiting' =>
  // Still assigning, or halted before it was done: no stage has started.
  rollout.preparing !== undefined
    ? 'waiting'
    : index < rollout.currentStage || (index === rollout.currentStage && rollout.completed !== undefined)
      ? 'done'
      : index === rollout.currentStage
        ? 'current'
        : 'waiting';

/** How far a preparing rollout's assignment is: "Assigning its devices: 2,500 of 10,000." */
export const preparingText = (preparing: Rollout['preparing']): string =>
  preparing
    ? `Assigning its devices: ${preparing.assigned.toLocaleString('en')} of ${preparing.of.toLocaleString('en')}.`
    : 'Assigning its devices.';

/** A rollout halted before every device was assigned (decision 114's addendum): it never offered anything. */
export const haltedPreparingText = (preparing: NonNullable<Rollout['preparing']>): string =>
  `Halted while assigning its devices (${preparing.assigned.toLocaleString('en')} of ` +
  `${preparing.of.toLocaleString('en')} assigned): nothing was offered. Resuming goes on assigning them.`;

/** How many of a stage's devices finished (succeeded, failed, rejected, timed out), and its share in whole percent. */
export const finishedOf = (stage: Rollout['stages'][number]) => {
  const finished = FINISHED_STATES.reduce((sum, state) => sum + (stage.counts[state as DeviceUpdateState] ?? 0), 0);
  const own = Math.max(stage.devices - stage.counts.superseded, 0);
  return { finished, own, percent: own === 0 ? 0 : Math.round((finished / own) * 100) };
};

/** The abort criteria in words, as the rollout page states them. */
export const abortText = (abort: Rollout['abort']): string =>
  `Halts by itself when a stage's failed and timed-out devices make it ${HALT_CONFIDENCE_PERCENT} % sure that ` +
  `${abort.failureThresholdPercent} % or more of its devices fail, once ${abort.minFinished} have finished (or the ` +
  `whole stage, when it holds fewer). A device ` +
  `that has not finished ${durationText(abort.timeoutSeconds)} after its offer is timed out.`;

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
