import { DomainError } from '../../_shared/errors';

/**
 * An error of the SensorThings service, naming the query option at fault when there is one. The routes answer every
 * refusal in OData's JSON error shape (their contract's `errorShape`, written by functions/_shared/http/http-errors.ts),
 * so the service throws the platform's errors as they are; this class only adds the `target`.
 */
export class StaError extends DomainError {
  constructor(status: number, message: string, target?: string) {
    super(status, message);
    if (target) this.target = target;
  }
}

/** A request the service cannot answer as written: a syntax error, an unknown property, an option out of range. */
export const badRequest = (message: string, target?: string) => new StaError(400, message, target);

/** OGC 18-088 req/request-data/query-status-code: an option or function the service does not implement is a 501. */
export const notImplemented = (message: string, target?: string) => new StaError(501, message, target);
