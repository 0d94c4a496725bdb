import { IOT_ERROR_CODES, IOT_GENERIC_ERROR, IotServiceError, iotErrorCode, iotServiceError } from './iot-errors';

/** Spec §8, word for word: the IoT service errors the product recognises. */
const SPEC_CODES =
  'InternalFailureException, InvalidRequestException, ResourceNotFoundException, ServiceUnavailableException, ThrottlingException, TransferAlreadyCompletedException, UnauthorizedException, ConflictException, InternalServerException, ServiceQuotaExceededException, ValidationException, LimitExceededException, VersionConflictException, InvalidStateTransitionException, ConflictingResourceUpdateException, InternalException, ResourceAlreadyExistsException, CertificateValidationException, InvalidQueryException, IndexNotReadyException, InvalidAggregationException, MalformedPolicyException, VersionsLimitExceededException, SqlParseException, DeleteConflictException, CertificateStateException, NotConfiguredException, RegistrationCodeValidationException, CertificateConflictException, ResourceRegistrationFailureException, TaskAlreadyExistsException, InvalidResponseException, TransferConflictException';

describe('the IoT error catalogue (spec §8)', () => {
  it("holds exactly the spec's 33 codes, in its order", () => {
    expect(IOT_ERROR_CODES.join(', ')).toBe(SPEC_CODES);
    expect(IOT_ERROR_CODES).toHaveLength(33);
  });

  it.each(IOT_ERROR_CODES)(
    'reads %s from a body, with or without a service prefix, as an error of that name',
    (code) => {
      for (const body of [
        { __type: code, message: 'm' },
        { __type: `com.amazonaws.iot#${code}`, message: 'm' },
        { code: `aws.iot#${code}`, message: 'm' },
        { Code: `${code}:http://internal.amazon.com/coral/com.amazonaws.iot/`, Message: 'm' },
      ]) {
        const error = iotServiceError(body, { status: 400 });
        expect(error).toBeInstanceOf(IotServiceError);
        expect(error.name).toBe(code);
        expect(error.code).toBe(code);
        expect(error.message).toBe('m');
        expect(error.known).toBe(true);
      }
    },
  );

  it('reads the code from the x-amzn-errortype header when the body has none', () => {
    const error = iotServiceError(
      { message: 'Rate exceeded' },
      { status: 429, headers: { 'X-Amzn-ErrorType': 'ThrottlingException:' } },
    );
    expect(error.name).toBe('ThrottlingException');
    expect(error.retryable).toBe(true);
  });

  it("reads an SDK error's name (the SDK names its errors by their code)", () => {
    const sdk = Object.assign(new Error('Policy not found'), {
      name: 'ResourceNotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
    const error = iotServiceError(sdk);
    expect(error).toMatchObject({ name: 'ResourceNotFoundException', status: 404, retryable: false });
    expect(error.message).toBe('Policy not found');
    expect(error.cause).toBe(sdk);
  });

  it('gives a generic service error for an unknown code, keeping the code it read', () => {
    const error = iotServiceError({ __type: 'aws.iot#SomethingNewException', message: 'new' }, { status: 400 });
    expect(error.name).toBe(IOT_GENERIC_ERROR);
    expect(error.code).toBe('SomethingNewException');
    expect(error.known).toBe(false);
    expect(error.retryable).toBe(false);
    const bare = iotServiceError(new Error('socket hang up'));
    expect(bare.name).toBe(IOT_GENERIC_ERROR);
    expect(bare.message).toBe('socket hang up');
    expect(iotServiceError({}, { status: 503 })).toMatchObject({ name: IOT_GENERIC_ERROR, retryable: true });
  });

  it('counts only service-side failures as worth retrying', () => {
    for (const code of ['ThrottlingException', 'ServiceUnavailableException', 'InternalFailureException']) {
      expect(iotServiceError({ __type: code }).retryable).toBe(true);
    }
    for (const code of ['UnauthorizedException', 'ResourceNotFoundException', 'MalformedPolicyException']) {
      expect(iotServiceError({ __type: code }).retryable).toBe(false);
    }
  });

  it('strips every spelling of a prefix or suffix', () => {
    expect(iotErrorCode('com.amazonaws.iot#ThrottlingException')).toBe('ThrottlingException');
    expect(iotErrorCode('iot.ThrottlingException')).toBe('ThrottlingException');
    expect(iotErrorCode('ThrottlingException,Other')).toBe('ThrottlingException');
    expect(iotErrorCode('')).toBeUndefined();
    expect(iotErrorCode(undefined)).toBeUndefined();
  });
});
