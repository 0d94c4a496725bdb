import { MESSAGES } from '../../../shared/messages';
import { errorMessage } from './error-message';
import { loginReasonText, UI_MESSAGES } from './ui-messages';

describe('loginReasonText', () => {
  it('puts a known reason in words', () => {
    expect(loginReasonText('session-expired')).toBe('Your session expired. Please sign in again.');
  });

  it.each([[null], [undefined], [''], ['toString'], ['<script>']])('ignores %j', (reason) => {
    expect(loginReasonText(reason)).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it("shows an error's own message, e.g. the API's 4xx message", () => {
    expect(errorMessage(new Error(MESSAGES.parameterExists('a')))).toBe('Parameter already exists: a');
  });

  it('never shows an object dump', () => {
    expect(errorMessage({ code: 1 })).toBe(UI_MESSAGES.unknownError);
    expect(errorMessage(new Error('  '))).toBe(UI_MESSAGES.unknownError);
  });
});
