import { type IotServiceError, iotServiceError } from '../../../shared/iot/iot-errors';
import { MESSAGES } from '../../../shared/messages';
import { ServiceUnavailable } from '../errors';
import { log } from '../logger';

/**
 * One call to IoT Core (control or data plane), its failure read as the service's own error (spec §8). The code is
 * logged; a busy or failing service answers 503 with words a person can act on ("try again shortly"); any other
 * error is thrown on as the named IotServiceError, which the HTTP chain answers with a bare 500 (it is about our
 * account or configuration, not the caller's request).
 */
export const iotCall = async <T>(action: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    const failure: IotServiceError = iotServiceError(error);
    log(failure.retryable ? 'warn' : 'error', 'IoT call failed', {
      action,
      code: failure.code,
      error: failure.name,
      status: failure.status,
      message: failure.message,
    });
    if (failure.retryable) throw new ServiceUnavailable(MESSAGES.realtimeBusy);
    throw failure;
  }
};
