/** Far below DynamoDB's 400 KB an item: one record's change, before and after together stay under it. */
export const MAX_JSON = 100_000;

/** A value as JSON, or, when longer than MAX_JSON, only how long it was. */
export const boundedJson = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'null';
  return text.length <= MAX_JSON ? text : JSON.stringify({ truncated: true, characters: text.length });
};

/**
 * A record's change, before and after as its log line carries them: each cut as the stored item cuts it, so a call
 * with a large body (a rollout's 10,000 device ids) stays one log event (CloudWatch Logs refuses events over 256 KB).
 */
export const boundedForLog = <T extends { change: unknown; before?: unknown; after?: unknown }>(record: T): T => {
  const cut = (value: unknown) => JSON.parse(boundedJson(value)) as unknown;
  return {
    ...record,
    change: cut(record.change),
    ...(record.before !== undefined ? { before: cut(record.before) } : {}),
    ...(record.after !== undefined ? { after: cut(record.after) } : {}),
  };
};
