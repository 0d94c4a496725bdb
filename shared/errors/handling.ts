/**
 * Spec §8 "Handling": most calls log the error and return nothing; the notification create calls return the error
 * object; API wrapper calls log and rethrow. Each rule is one function, so a call site says which rule it follows
 * (docs/system.md, "Error catalogue", lists who uses which):
 * - {@link logAndReturnNothing}: best-effort work whose failure must not stop the caller (telling other tabs,
 *   stopping a live watch, a courtesy notice, reading who is signed in once the session has expired);
 * - {@link returnError}: the notification create calls, whose caller shows the error beside the form;
 * - {@link logAndRethrow}: the web app's API clients, whose callers decide what a failure means.
 */

/** Where a rule logs: `console.warn` in the browser, the JSON logger in a Lambda. */
export type ErrorLog = (message: string, error: unknown) => void;

export const consoleErrorLog: ErrorLog = (message, error) => console.warn(message, error);

/** Logs the failure and answers undefined: for calls whose failure the caller can do nothing about. */
export const logAndReturnNothing = async <T>(
  what: string,
  call: () => Promise<T> | T,
  log: ErrorLog = consoleErrorLog,
): Promise<T | undefined> => {
  try {
    return await call();
  } catch (error) {
    log(what, error);
    return undefined;
  }
};

/** Answers the failure as an Error instead of throwing it: the caller shows it where the call was made. */
export const returnError = async <T>(call: () => Promise<T> | T): Promise<T | Error> => {
  try {
    return await call();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
};

/** Logs the failure and throws it on unchanged. */
export const logAndRethrow = async <T>(
  what: string,
  call: () => Promise<T> | T,
  log: ErrorLog = consoleErrorLog,
): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    log(what, error);
    throw error;
  }
};
