/** Typed domain errors. The http chain maps them to a status in one place (see http/http-errors.ts). */
export class DomainError extends Error {
  /** Response headers the error answers with (e.g. a 429's rate-limit headers). */
  headers?: Record<string, string>;
  /**
   * The one thing the refusal is about, for a route whose error shape names it (OData's `target`: the query option at
   * fault). The shape itself is the route's (ErrorShape, shared/contracts/define-route.ts), never the error's.
   */
  target?: string;

  constructor(
    readonly status: number,
    message: string,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends DomainError {
  constructor(message: string, issues?: { path: string; message: string }[]) {
    super(400, message, issues);
  }
}
export class Unauthorized extends DomainError {
  constructor(message = 'Sign-in required') {
    super(401, message);
  }
}
export class Forbidden extends DomainError {
  constructor(message = 'You do not have access to this resource') {
    super(403, message);
  }
}
export class NotFound extends DomainError {
  constructor(message: string) {
    super(404, message);
  }
}
export class MethodNotAllowed extends DomainError {
  constructor(message: string) {
    super(405, message);
  }
}
/** A body over what its route takes. */
export class PayloadTooLarge extends DomainError {
  constructor(message: string) {
    super(413, message);
  }
}
/** A body in a format the route does not read (everything here is JSON). */
export class UnsupportedMediaType extends DomainError {
  constructor(message: string) {
    super(415, message);
  }
}
export class Conflict extends DomainError {
  constructor(message: string) {
    super(409, message);
  }
}
/** A dependency failed and the change was undone: the client may retry. */
export class ServiceUnavailable extends DomainError {
  constructor(message: string) {
    super(503, message);
  }
}

/** Over a quota: the message says when it resets; `headers` carry the rate-limit state. */
export class TooManyRequests extends DomainError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, message);
    this.headers = headers;
  }
}
