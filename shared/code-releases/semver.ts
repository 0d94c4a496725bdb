/**
 * Semantic versions (semver.org 2.0.0) of firmware releases. Build metadata (`+…`) is refused: semver ignores it
 * when ordering versions, so two builds of one version could not be told apart as releases.
 */
const NUMBER = '0|[1-9]\\d*';
const PRERELEASE_ID = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
export const SEMVER_PATTERN = new RegExp(
  `^(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})(?:-(${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*))?$`,
);

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

/** Parts beyond this are refused: they keep the sort key fixed-width (no firmware is numbered in the millions). */
const MAX_PART = 999_999;

export const parseSemVer = (text: string): SemVer | undefined => {
  const match = SEMVER_PATTERN.exec(text);
  if (!match) return undefined;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  const prerelease = match[4] ? match[4].split('.') : [];
  const numbers = [major, minor, patch, ...prerelease.filter((id) => /^\d+$/.test(id)).map(Number)];
  if (numbers.some((n) => n > MAX_PART)) return undefined;
  return { major, minor, patch, prerelease };
};

const pad = (n: number) => String(n).padStart(6, '0');

/**
 * A string whose lexical order is the versions' precedence (semver §11), for a DynamoDB sort key: numbers are
 * padded, a release sorts after its pre-releases (`~` is above every identifier character), numeric pre-release
 * identifiers sort before alphanumeric ones and among themselves by value.
 */
export const versionSortKey = (version: SemVer): string => {
  const core = `${pad(version.major)}.${pad(version.minor)}.${pad(version.patch)}`;
  if (version.prerelease.length === 0) return `${core}~`;
  const ids = version.prerelease.map((id) => (/^\d+$/.test(id) ? `0${pad(Number(id))}` : `1${id}`));
  // `#` between identifiers and `!` at the end are below every identifier character (the lowest is `-`), so `rc`
  // sorts before `rc.1` and `rc.x` before `rc-x`, as semver compares them identifier by identifier.
  return `${core}-${ids.join('#')}!`;
};

/** Semver precedence: negative when a < b. */
export const compareSemVer = (a: SemVer, b: SemVer): number => {
  const left = versionSortKey(a);
  const right = versionSortKey(b);
  return left < right ? -1 : left > right ? 1 : 0;
};
