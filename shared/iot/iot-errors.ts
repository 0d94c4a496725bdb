/**
 * Spec §8: the IoT service's errors, read from the error code in the answer (the code may carry a service prefix).
 * Each known code becomes an error of that name; any other code a generic service error. The API's IoT calls (the
 * live view's target policies, the data plane's Publish) go through {@link iotServiceError}, so what they log and
 * answer names the service's own code.
 */
export const IOT_ERROR_CODES = [
  'InternalFailureException',
  'InvalidRequestException',
  'ResourceNotFoundException',
  'ServiceUnavailableException',
  'ThrottlingException',
  'TransferAlreadyCompletedException',
  'UnauthorizedException',
  'ConflictException',
  'InternalServerException',
  'ServiceQuotaExceededException',
  'ValidationException',
  'LimitExceededException',
  'VersionConflictException',
  'InvalidStateTransitionException',
  'ConflictingResourceUpdateException',
  'InternalException',
  'ResourceAlreadyExistsException',
  'CertificateValidationException',
  'InvalidQueryException',
  'IndexNotReadyException',
  'InvalidAggregationException',
  'MalformedPolicyException',
  'VersionsLimitExceededException',
  'SqlParseException',
  'DeleteConflictException',
  'CertificateStateException',
  'NotConfiguredException',
  'RegistrationCodeValidationException',
  'CertificateConflictException',
  'ResourceRegistrationFailureException',
  'TaskAlreadyExistsException',
  'InvalidResponseException',
  'TransferConflictException',
] as const;

export type IotErrorCode = (typeof IOT_ERROR_CODES)[number];

/** The name of the generic error an unknown code becomes (the SDK's own name for it). */
export const IOT_GENERIC_ERROR = 'IoTServiceException';

const KNOWN = new Set<string>(IOT_ERROR_CODES);

/**
 * Codes worth a second try: the service was busy or failed on its side. Everything else is about the request or the
 * account (a missing policy, a refused grant), which trying again does not change.
 */
const RETRYABLE = new Set<string>([
  'InternalFailureException',
  'InternalServerException',
  'InternalException',
  'ServiceUnavailableException',
  'ThrottlingException',
  'LimitExceededException',
]);

/**
 * A code without its service prefix or suffix, as AWS spells it in the wild: `com.amazonaws.iot#ThrottlingException`,
 * `aws.iot#ThrottlingException`, `ThrottlingException:http://internal.amazon.com/…`, `iot.ThrottlingException` and
 * lists such as `ThrottlingException,Other` all read as `ThrottlingException`.
 */
export const iotErrorCode = (raw: unknown): string | undefined => {
  if (typeof raw === 'number') return String(raw);
  if (typeof raw !== 'string') return undefined;
  let code = raw.trim().split(',')[0]!.split(':')[0]!;
  if (code.includes('#')) code = code.slice(code.lastIndexOf('#') + 1);
  if (code.includes('.')) code = code.slice(code.lastIndexOf('.') + 1);
  return code || undefined;
};

/** One of the IoT service's errors: `name` is its code when the code is known, else {@link IOT_GENERIC_ERROR}. */
export class IotServiceError extends Error {
  /** The code as read, prefix removed (for an unknown code too: logs keep it). */
  readonly code: string;
  /** The HTTP status of the answer, when known. */
  readonly status?: number;
  /** Whether trying again later may succeed (the service was busy or failed on its side). */
  readonly retryable: boolean;

  constructor(code: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.name = KNOWN.has(code) ? code : IOT_GENERIC_ERROR;
    this.status = options.status;
    this.retryable = RETRYABLE.has(code) || (options.status !== undefined && options.status >= 500);
  }

  get known(): boolean {
    return this.name !== IOT_GENERIC_ERROR;
  }
}

type Fields = Record<string, unknown>;

const asFields = (value: unknown): Fields | undefined =>
  value !== null && typeof value === 'object' ? (value as Fields) : undefined;

/** Where AWS puts the code: the SDK's error `name`, a JSON body's `__type`, `code` or `Code`, or a header. */
const codeOf = (source: Fields, headers?: Record<string, string | undefined>): string | undefined => {
  const fromHeader = headers
    ? Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-amzn-errortype')?.[1]
    : undefined;
  for (const candidate of [source.__type, source.code, source.Code, source.errorCode, fromHeader]) {
    const code = iotErrorCode(candidate);
    if (code) return code;
  }
  // An SDK error carries the code as its name; a plain Error's name says nothing.
  const name = iotErrorCode(source.name);
  return name && name !== 'Error' ? name : undefined;
};

const messageOf = (source: Fields, code: string): string => {
  for (const candidate of [source.message, source.Message, source.errorMessage]) {
    if (typeof candidate === 'string' && candidate) return candidate;
  }
  return code;
};

/**
 * The IoT error behind anything an IoT call threw or answered: an SDK error, or an answer's parsed JSON body (with
 * its status and headers, when the caller read the HTTP answer itself). An answer without any code is a generic
 * service error named by its status.
 */
export const iotServiceError = (
  error: unknown,
  answer: { status?: number; headers?: Record<string, string | undefined> } = {},
): IotServiceError => {
  if (error instanceof IotServiceError) return error;
  const fields = asFields(error) ?? {};
  const metadata = asFields(fields.$metadata);
  const status = answer.status ?? (typeof metadata?.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined);
  const code = codeOf(fields, answer.headers) ?? (status ? `HTTP ${status}` : IOT_GENERIC_ERROR);
  const message = typeof error === 'string' ? error : messageOf(fields, code);
  return new IotServiceError(code, message, { status, cause: error });
};
