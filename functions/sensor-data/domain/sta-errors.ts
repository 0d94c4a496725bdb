import { DomainError } from '../../_shared/errors';

/**
 * An error of the SensorThings service in OData's JSON error shape (OData JSON Format 4.01 §21.1: one object with a
 * single `error` member holding `code` and `message`, `target` naming the query option at fault), which SensorThings
 * clients read. The HTTP chain sends `body` as it is.
 */
export class StaError extends DomainError {
  constructor(status: number, message: string, target?: string) {
    super(status, message);
    this.body = { error: { code: String(status), message, ...(target ? { target } : {}) } };
  }
}

/** A request the service cannot answer as written: a syntax error, an unknown property, an option out of range. */
export const badRequest = (message: string, target?: string) => new StaError(400, message, target);

/** OGC 18-088 req/request-data/query-status-code: an option or function the service does not implement is a 501. */
export const notImplemented = (message: string, target?: string) => new StaError(501, message, target);

/** The same refusal (status, message, headers) in OData's shape, for an error the shared gates threw. */
export const asStaError = (error: unknown): unknown => {
  if (!(error instanceof DomainError) || error.body) return error;
  const sta = new StaError(error.status, error.message);
  if (error.headers) sta.headers = error.headers;
  return sta;
};
