import { Logger } from '@aws-lambda-powertools/logger';
import { readChoiceEnv, readEnvOr } from './env';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/**
 * Every function's logger (Powertools for AWS Lambda): one JSON line per entry with the service (the function's area,
 * POWERTOOLS_SERVICE_NAME), the Lambda context and cold start once the trigger's chain has added them
 * (functions/_shared/telemetry.ts), the X-Ray trace id, and the correlation id of the request or message that caused it.
 * LOG_LEVEL is read once and checked: a value that is not a level stops the cold start.
 */
export const logger = new Logger({
  serviceName: readEnvOr('POWERTOOLS_SERVICE_NAME', 'device-data'),
  logLevel: readChoiceEnv('LOG_LEVEL', LEVELS, 'info').toUpperCase() as Uppercase<Level>,
});

/** Keys Powertools keeps for itself and drops (with a warning) from a line's fields; ours are kept under another name. */
const RESERVED_KEYS: Record<string, string> = {
  level: 'levelField',
  message: 'detail',
  sampling_rate: 'samplingRateField',
  service: 'serviceField',
  timestamp: 'timestampField',
};

/**
 * A line to the log: what a use case gets as its `log` dependency (it never imports the logger, nor writes to
 * `console`; Biome holds both), the wiring hands it {@link log}.
 */
export type Log = (level: Level, message: string, fields?: Record<string, unknown>) => void;

export const log: Log = (level, message, fields = {}) => {
  logger[level](
    message,
    Object.fromEntries(Object.entries(fields).map(([key, value]) => [RESERVED_KEYS[key] ?? key, value])),
  );
};

/**
 * A record that must reach the log whatever LOG_LEVEL says (the audit log's copy, docs/audit.md): a function may
 * append to its log group but never change or delete what is there. Written past the logger, whose level could hide
 * it, with the same correlation id.
 */
export const logRecord = (message: string, fields: Record<string, unknown>): void => {
  const correlationId = logger.getCorrelationId();
  console.log(
    JSON.stringify({
      level: 'RECORD',
      message,
      timestamp: new Date().toISOString(),
      ...(typeof correlationId === 'string' ? { correlation_id: correlationId } : {}),
      ...fields,
    }),
  );
};

/** The correlation id of the work under way, to hand on with a queue message (undefined outside any chain). */
export const currentCorrelationId = (): string | undefined => {
  const id = logger.getCorrelationId();
  return typeof id === 'string' ? id : undefined;
};
