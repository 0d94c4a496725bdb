/** A filter value in Cognito's syntax (ListUsers' `Filter`): double-quoted, with `\` and `"` escaped. */
export const quote = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
