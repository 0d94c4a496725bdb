import { readChoiceEnv } from './env';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const threshold = order[readChoiceEnv('LOG_LEVEL', LEVELS, 'info')];

/** One JSON line per entry, so CloudWatch Logs Insights can query fields. */
export const log = (level: Level, message: string, fields: Record<string, unknown> = {}): void => {
  if (order[level] < threshold) return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
};

/**
 * A record that must reach the log whatever LOG_LEVEL says (the audit log's copy, docs/audit.md): a function may
 * append to its log group but never change or delete what is there.
 */
export const logRecord = (message: string, fields: Record<string, unknown>): void => {
  console.log(JSON.stringify({ level: 'record', message, time: new Date().toISOString(), ...fields }));
};
