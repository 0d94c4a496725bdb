import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layers the linter holds (docs/architecture.md): each rule of biome.json that refuses a kind of back-edge is
 * shown refusing a small offending file, at a path where the rule applies, with its own message; files beside them
 * that import the way the layers allow pass. The files are written into the repository for the one Biome run (a
 * rule's `includes` are paths inside it) and removed at once.
 */
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

type Pattern = { group: string[]; message: string };
type Override = {
  includes: string[];
  linter?: {
    rules?: {
      style?: {
        noRestrictedImports?: { options?: { patterns?: Pattern[] } };
        noRestrictedGlobals?: { options?: { deniedGlobals?: Record<string, string> } };
      };
    };
  };
};

const config = JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8')) as { overrides: Override[] };

/** The message of the pattern whose group holds `glob` in the override for exactly these `includes`. */
const messageOf = (includes: string[], glob: string): string => {
  const override = config.overrides.find((o) => JSON.stringify(o.includes) === JSON.stringify(includes));
  const pattern = override?.linter?.rules?.style?.noRestrictedImports?.options?.patterns?.find((p) =>
    p.group.includes(glob),
  );
  if (!pattern) throw new Error(`biome.json has no pattern ${glob} for ${includes.join(', ')}`);
  return pattern.message;
};

const NON_TEST = '!functions/**/*.test.ts';
const MESSAGES = {
  infra: messageOf(['functions/**', NON_TEST], '**/infra/**'),
  domainInfra: messageOf(['functions/*/domain/**', '!functions/*/domain/**/*.test.ts'], '**/infra/**'),
  sharedToArea: messageOf(['functions/_shared/*.ts', NON_TEST], '../*/**'),
  sharedToAreaNested: messageOf(['functions/_shared/*/*.ts', NON_TEST], '../../*/**'),
  depsToArea: messageOf(['functions/*/deps.ts'], '../*/**'),
  wiringToArea: messageOf(['functions/*/wiring/*.ts', NON_TEST], '../../*/**'),
  featureToApp: messageOf(['frontend/src/features/**'], '**/app/**'),
  processEnv: config.overrides.find((o) => o.linter?.rules?.style?.noRestrictedGlobals)!.linter!.rules!.style!
    .noRestrictedGlobals!.options!.deniedGlobals!.process!,
};

const probe = `zz-layer-probe-${process.pid}`;
const cleanProbe = `${probe}-clean`;

/** Each offending file with the one error it must get; each clean file gets none. */
const OFFENDING: { file: string; text: string; message: string; category: string }[] = [
  {
    // What functions/users/deps.ts did (the user pool's password policy).
    file: `functions/${probe}/handler.ts`,
    text: "import { USER_POOL } from '../../infra/definitions/auth';\n\nexport const policy = USER_POOL.passwordPolicy;\n",
    message: MESSAGES.infra,
    category: 'lint/style/noRestrictedImports',
  },
  {
    file: `functions/${probe}/domain/plan.ts`,
    text: "import type { EnvName } from '../../../infra/definitions/environments';\n\nexport type Home = EnvName;\n",
    message: MESSAGES.domainInfra,
    category: 'lint/style/noRestrictedImports',
  },
  {
    file: `functions/_shared/${probe}.ts`,
    text: "import { CUSTOMER_ENV } from '../customer/deps';\n\nexport const names = CUSTOMER_ENV;\n",
    message: MESSAGES.sharedToArea,
    category: 'lint/style/noRestrictedImports',
  },
  {
    // What functions/_shared/billing/subscription-history.ts did.
    file: `functions/_shared/${probe}/history.ts`,
    text:
      "import type { DeviceSubscriptionRecord } from '../../customer/domain/subscription-record';\n\n" +
      'export type Record = DeviceSubscriptionRecord;\n',
    message: MESSAGES.sharedToAreaNested,
    category: 'lint/style/noRestrictedImports',
  },
  {
    // What functions/api/deps.ts and functions/datasets/deps.ts did.
    file: `functions/${probe}/deps.ts`,
    text: "import { createUserStore } from '../users/store/user-store';\n\nexport const users = createUserStore;\n",
    message: MESSAGES.depsToArea,
    category: 'lint/style/noRestrictedImports',
  },
  {
    file: `functions/${probe}/wiring/part.ts`,
    text:
      "import { createExportStore } from '../../sensor-data/store/export-store';\n\n" +
      'export const exports = createExportStore;\n',
    message: MESSAGES.wiringToArea,
    category: 'lint/style/noRestrictedImports',
  },
  {
    // What five features did with app/loading-page.
    file: `frontend/src/features/${probe}/page.tsx`,
    text: "import { router } from '../../app/router';\n\nexport const Page = () => <p>{String(router)}</p>;\n",
    message: MESSAGES.featureToApp,
    category: 'lint/style/noRestrictedImports',
  },
  {
    file: `functions/${probe}/settings.ts`,
    text: "export const table = process.env.USERS_TABLE || 'users';\n",
    message: MESSAGES.processEnv,
    category: 'lint/style/noRestrictedGlobals',
  },
];

/** Imports each layer allows: the same rules must not refuse them. */
const CLEAN: { file: string; text: string }[] = [
  {
    file: `functions/${cleanProbe}/deps.ts`,
    text:
      "import { readEnv } from '../_shared/env';\nimport { createRelationTable } from '../_shared/relations/relation-table';\n" +
      "import { TABLES } from '../_shared/tables';\nimport { LOCAL_ENV_NAME } from '../../shared/config/environment-names';\n" +
      "import { createThing } from './store/thing';\n\n" +
      'export const parts = [readEnv, createRelationTable, TABLES, LOCAL_ENV_NAME, createThing];\n',
  },
  {
    file: `functions/${cleanProbe}/wiring/part.ts`,
    text:
      "import { log } from '../../_shared/logger';\nimport { createThing } from '../store/thing';\n" +
      "import type { CommonDeps } from './common';\n\nexport const part = (common: CommonDeps) => [log, createThing, common];\n",
  },
  {
    // A _shared module beside another (`_shared/relations` is named like an area, and is none).
    file: `functions/_shared/${cleanProbe}/module.ts`,
    text:
      "import { createRelationTable } from '../relations/relation-table';\nimport { readEnv } from '../env';\n" +
      "import type { Relation } from '../../../shared/contracts/shapes';\n\n" +
      'export const parts: unknown[] = [createRelationTable, readEnv];\nexport type Shown = Relation;\n',
  },
  {
    file: `functions/${cleanProbe}/settings.ts`,
    text: "import { readEnv } from '../_shared/env';\n\nexport const env = readEnv({ usersTable: 'USERS_TABLE' });\n",
  },
  {
    file: `frontend/src/features/${cleanProbe}/page.tsx`,
    text:
      "import { LoadingPage } from '../../components/loading-page';\nimport { api } from '../../lib/api';\n\n" +
      'export const Page = () => <LoadingPage key={String(api)} />;\n',
  },
];

/** One diagnostic of Biome's report: the file, the rule, and its text (its message and the advices under it). */
interface Diagnostic {
  path: string;
  category: string;
  text: string;
}

/**
 * Biome's own report, read from its text: the JSON reporter leaves out the advices, where noRestrictedGlobals puts
 * the configured message. Each diagnostic starts with `{path}:{line}:{column} {category}`.
 */
const lint = async (files: string[]): Promise<Diagnostic[]> => {
  const biome = path.join(root, 'node_modules/.bin/biome');
  const args = [
    'lint',
    '--only=style/noRestrictedImports',
    '--only=style/noRestrictedGlobals',
    '--max-diagnostics=200',
  ];
  const { stdout, stderr } = await run(biome, [...args, ...files], { cwd: root }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  const output = `${stdout}\n${stderr}`;
  if (!/Checked \d+ files?/.test(output)) throw new Error(`Biome did not check the files:\n${output}`);
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const header = /^(\S+):\d+:\d+ (lint\/\S+) /.exec(line);
    if (header) diagnostics.push({ path: header[1]!, category: header[2]!, text: '' });
    else if (diagnostics.length > 0) diagnostics.at(-1)!.text += ` ${line.trim()}`;
  }
  return diagnostics;
};

describe('the layers the linter holds (biome.json)', () => {
  let diagnostics: Diagnostic[] = [];
  const written = [...OFFENDING, ...CLEAN];

  beforeAll(async () => {
    try {
      for (const { file, text } of written) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      }
      diagnostics = await lint(written.map(({ file }) => file));
    } finally {
      for (const dir of [
        `functions/${probe}`,
        `functions/${cleanProbe}`,
        `functions/_shared/${probe}`,
        `functions/_shared/${cleanProbe}`,
        `frontend/src/features/${probe}`,
        `frontend/src/features/${cleanProbe}`,
      ]) {
        rmSync(path.join(root, dir), { recursive: true, force: true });
      }
      rmSync(path.join(root, `functions/_shared/${probe}.ts`), { force: true });
    }
  }, 120_000);

  it.each(OFFENDING.map((o) => [o.file.replaceAll(probe, '…'), o] as const))(
    'refuses %s with its rule',
    (_name, { file, message, category }) => {
      const found = diagnostics.filter((d) => d.path === file);
      expect(found.map((d) => d.category)).toEqual([category]);
      expect(found[0]!.text.replace(/\s+/g, ' ')).toContain(message);
    },
  );

  it('lets every file through that imports the way the layers allow', () => {
    const clean = new Set(CLEAN.map(({ file }) => file));
    expect(diagnostics.filter((d) => clean.has(d.path))).toEqual([]);
  });

  it("leaves functions/ one `process` outside the env reader: tracing's bundle-time constant", () => {
    const sources = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
        const relative = path.join(dir, entry.name);
        if (entry.isDirectory()) return sources(relative);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative] : [];
      });
    const suppressed = sources('functions').flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(/biome-ignore lint\/style\/noRestrictedGlobals/g)].map(
        () => file,
      ),
    );
    expect(suppressed).toEqual(['functions/_shared/tracing.ts']);
    expect(readFileSync(path.join(root, 'functions/_shared/tracing.ts'), 'utf8')).toContain(
      "process.env.TRACE_SDK_CALLS === 'true'",
    );
  });
});
