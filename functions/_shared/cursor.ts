import { MESSAGES } from '../../shared/messages';
import { BadRequest } from './errors';

/** DynamoDB's LastEvaluatedKey travels to clients as an opaque base64url cursor. */
export const encodeCursor = (key: Record<string, unknown> | undefined): string | undefined =>
  key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;

export const decodeCursor = (cursor: string | undefined): Record<string, unknown> | undefined => {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the typed error
  }
  throw new BadRequest(MESSAGES.invalidCursor);
};
