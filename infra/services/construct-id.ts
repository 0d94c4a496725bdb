/**
 * A stable PascalCase construct id from names as the definitions spell them
 * (`code-releases` → `CodeReleases`, `Approved_users` → `ApprovedUsers`). Construct ids become logical ids,
 * so they are derived from the one spelling in the definitions rather than typed again.
 */
export const constructId = (...parts: string[]): string =>
  parts
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
