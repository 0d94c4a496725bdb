import type { Log } from '../../functions/_shared/logger';

/** A use case's `log` that writes nowhere, for tests that do not read the lines. */
export const silentLog: Log = () => undefined;

/** A use case's `log` that keeps each line, for tests that read what was logged. */
export const recordingLog = () => {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const log: Log = (level, message, fields = {}) => {
    lines.push({ level, message, fields });
  };
  return { log, lines };
};
