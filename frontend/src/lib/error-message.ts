import { UI_MESSAGES } from './ui-messages';

/**
 * The text to show for a failed call: the API's own 4xx message (ApiError.message), Amplify's and
 * Cognito's messages as they come, never an object dump.
 */
export const errorMessage = (error: unknown): string => {
  if (error instanceof Error && error.message.trim()) return error.message;
  if (typeof error === 'string' && error.trim()) return error;
  return UI_MESSAGES.unknownError;
};
