import path from 'node:path';
import {
  anchorsOf,
  checkDocs,
  checkRepository,
  PRODUCT_SPEC,
  type Problem,
  readRepository,
  STYLE_GUIDE,
  sectionNumbersOf,
  slugOf,
} from './doc-links';

const ROOT = path.resolve(import.meta.dirname, '../..');

const shown = (problems: Problem[]) => problems.map((p) => `${p.file}:${p.line} ${p.message}`);

describe('the guides in the repository', () => {
  it('every Markdown link, guide citation and docs path names a file and section that exist, and none points outside', () => {
    expect(shown(checkRepository(ROOT))).toEqual([]);
  });

  it('keeps the style guide’s sections §1 to §17, which older citations name', () => {
    const numbers = sectionNumbersOf(readRepository(ROOT).get(STYLE_GUIDE) ?? '');
    expect(Array.from({ length: 17 }, (_, i) => i + 1).filter((n) => !numbers.has(n))).toEqual([]);
  });
});

describe('the checker', () => {
  const GUIDES: [string, string][] = [
    [STYLE_GUIDE, '# Style\n\n## 1. One name\n\n## 14. Ports belong to the domain\n\n```md\n## 99. In a fence\n```\n'],
    [PRODUCT_SPEC, '# Spec\n\n## 6. Roles and permissions\n\n## 9. Business constants\n'],
    ['docs/architecture.md', '# Architecture\n\n## The two homes\n\n## Wiring: one shape for every area\n'],
  ];
  const check = (extra: [string, string][], directories: string[] = []) => {
    const files = new Map([...GUIDES, ...extra]);
    return shown(checkDocs(files, (file) => files.has(file) || directories.includes(file)));
  };

  it('finds nothing wrong in links and citations that resolve', () => {
    expect(
      check(
        [
          [
            'docs/users.md',
            'See [the homes](architecture.md#the-two-homes), [wiring](architecture.md#wiring-one-shape-for-every-area),\n' +
              '[decisions](decisions/), [top](#users) and [Cognito](https://docs.aws.amazon.com/cognito/).\n\n# Users\n',
          ],
          [
            'functions/a/domain/b.ts',
            '/**\n * Ports (docs/style.md §14,\n * §1); groups as spec §6 and §9 say (docs/architecture.md#the-two-homes).\n */',
          ],
          ['biome.json', '{ "message": "declare the port here (docs/style.md §14)." }'],
        ],
        ['docs/decisions'],
      ),
    ).toEqual([]);
  });

  it('reports a link to a missing file or section, from Markdown and from code', () => {
    expect(
      check([
        ['docs/users.md', 'Line one.\n[gone](sessions.md) and [no section](architecture.md#the-three-homes).\n'],
        ['infra/x.ts', '// see docs/decisions/999-nothing.md and docs/architecture.md#rooms\n'],
      ]),
    ).toEqual([
      'docs/users.md:2 sessions.md: no such file',
      'docs/users.md:2 architecture.md#the-three-homes: docs/architecture.md has no section #the-three-homes',
      'infra/x.ts:1 docs/decisions/999-nothing.md: no such file',
      'infra/x.ts:1 docs/architecture.md#rooms: docs/architecture.md has no section #rooms',
    ]);
  });

  it('reports a cited section of the style guide or the specification that does not exist', () => {
    expect(
      check([
        ['frontend/src/lib/query.ts', '/** One query cache (docs/style.md §13, §14). */\n'],
        ['shared/x.ts', '// The session cookie (spec §9), the tiers (spec §6/§12).\n'],
        ['biome.json', '{ "message": "see docs/style.md §99" }'],
      ]),
    ).toEqual([
      'frontend/src/lib/query.ts:1 docs/style.md has no §13',
      'shared/x.ts:1 spec §12: docs/product-spec.md has no §12',
      'biome.json:1 docs/style.md has no §99',
    ]);
  });

  it('reports a guide cited outside the repository', () => {
    const outside = [
      ['STYLE', ' §16'],
      ['ARCHITECTURE', '.md §1'],
      ['../shared/spec/', 'product-spec.md'],
      ['ROAD', 'MAP 1'],
    ].map((parts) => parts.join(''));
    expect(check([['frontend/src/features/x/index.ts', outside.map((cite) => `// (${cite})\n`).join('')]])).toEqual([
      `frontend/src/features/x/index.ts:1 "${outside[0]!.slice(0, -2)}" points outside the repository: cite docs/style.md §N`,
      `frontend/src/features/x/index.ts:2 "${outside[1]!.slice(0, -3)}" points outside the repository: cite docs/architecture.md#section`,
      `frontend/src/features/x/index.ts:4 "${outside[3]}" points outside the repository: cite what the code or a doc in docs/ says`,
      `frontend/src/features/x/index.ts:3 "${outside[2]!.slice(0, -'/product-spec.md'.length)}" points outside the repository: cite docs/`,
    ]);
  });
});

describe('anchors', () => {
  it('are GitHub’s: lower case, punctuation dropped, spaces as hyphens, repeats numbered', () => {
    expect(slugOf('17. The layers check themselves')).toBe('17-the-layers-check-themselves');
    expect(slugOf('Wiring: one shape for every area')).toBe('wiring-one-shape-for-every-area');
    expect(slugOf('The API (`/relations`)')).toBe('the-api-relations');
    expect(slugOf('19. Functions log through `log`; a use case gets it as a dependency')).toBe(
      '19-functions-log-through-log-a-use-case-gets-it-as-a-dependency',
    );
    expect([...anchorsOf('# Tests\n\n## Tests\n\n```\n## Not a heading\n```\n')]).toEqual(['tests', 'tests-1']);
  });
});
