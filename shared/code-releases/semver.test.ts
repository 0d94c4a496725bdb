import { compareSemVer, parseSemVer, versionSortKey } from './semver';

const parse = (text: string) => {
  const version = parseSemVer(text);
  if (!version) throw new Error(`not a version: ${text}`);
  return version;
};

describe('semantic versions of releases', () => {
  it('reads major, minor, patch and pre-release identifiers', () => {
    expect(parseSemVer('1.4.2')).toEqual({ major: 1, minor: 4, patch: 2, prerelease: [] });
    expect(parseSemVer('2.0.0-rc.1')).toEqual({ major: 2, minor: 0, patch: 0, prerelease: ['rc', '1'] });
  });

  it('refuses what is not semver 2.0.0, build metadata and leading zeros included', () => {
    for (const text of [
      '1.4',
      '1.4.2.0',
      'v1.4.2',
      '01.4.2',
      '1.4.2+build.7',
      '1.4.2-',
      '1.4.2-rc..1',
      '1.4.2-01',
      '',
    ]) {
      expect(parseSemVer(text)).toBeUndefined();
    }
    expect(parseSemVer('1000000.0.0')).toBeUndefined();
  });

  it('orders versions by semver precedence, and the sort key agrees', () => {
    // semver.org §11's own example, then numeric parts that a plain string sort gets wrong.
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ];
    const shuffled = [...ordered].reverse();
    expect(shuffled.sort((a, b) => compareSemVer(parse(a), parse(b)))).toEqual(ordered);
    const keys = ordered.map((text) => versionSortKey(parse(text)));
    expect([...keys].sort()).toEqual(keys);
  });

  it('compares identifier by identifier, so a hyphen inside one never outranks the dot between two', () => {
    // `rc.x` is `rc` then `x`; `rc-x` is one identifier that `rc` is a prefix of, so it is the higher.
    expect(versionSortKey(parse('1.0.0-rc.x')) < versionSortKey(parse('1.0.0-rc-x'))).toBe(true);
    expect(versionSortKey(parse('1.0.0-rc')) < versionSortKey(parse('1.0.0-rc.x'))).toBe(true);
  });
});
