/**
 * What a store keeps exactly (issue 19): DynamoDB numbers hold 38 digits between magnitudes 1e-130 and 1e126, and
 * JavaScript numbers are exact integers only up to 2^53 - 1. One rule for the request chain and for the routes that
 * check a batch item by item, so both refuse the same values with the same words.
 */
export const STORABLE_MESSAGES = {
  unsafeNumber: 'numbers must be whole numbers between -9007199254740991 and 9007199254740991, or decimals',
  tinyNumber: 'numbers must be 0 or at least 1e-130 in size',
  malformedText: 'text must be well-formed Unicode (a lone surrogate was sent)',
} as const;

const DYNAMODB_MIN_MAGNITUDE = 1e-130;

/** Why a number cannot be stored exactly, or undefined when it can. Every double above 2^53 is an integer. */
export const numberProblem = (value: number): string | undefined => {
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return STORABLE_MESSAGES.unsafeNumber;
  if (value !== 0 && Math.abs(value) < DYNAMODB_MIN_MAGNITUDE) return STORABLE_MESSAGES.tinyNumber;
  return undefined;
};

// With the u flag a surrogate pair is one code point, so only a lone surrogate matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why a text cannot be stored as sent (DynamoDB and the SDK need well-formed Unicode), or undefined. */
export const textProblem = (value: string): string | undefined =>
  LONE_SURROGATE.test(value) ? STORABLE_MESSAGES.malformedText : undefined;
