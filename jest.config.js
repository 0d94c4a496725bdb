/** jest in ESM mode (middy is ESM-only), TypeScript through @swc/jest. */
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        target: 'es2022',
        transform: { react: { runtime: 'automatic' } },
      },
      module: { type: 'es6' },
    },
  ],
};
const common = {
  transform,
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/cdk.out', '<rootDir>/.local'],
};

export default {
  // Browser tests wait on a cold Vite compile of the app; unit tests finish far below this.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      setupFiles: ['<rootDir>/test/support/unit-env.ts'],
      // test/docs: the guides' links and citations (docs/architecture.md, docs/style.md), checked as files.
      testMatch: ['<rootDir>/{shared,functions,infra,frontend}/**/*.test.{ts,tsx}', '<rootDir>/test/docs/**/*.test.ts'],
      // A component's stylesheet is Vite's to bundle; a component rendered here needs none.
      moduleNameMapper: { '\\.css$': '<rootDir>/test/support/no-style.ts' },
    },
    {
      ...common,
      displayName: 'infra',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
      // One synth of each environment's default templates per run, shared by the files (test/infra/synth.ts).
      globalSetup: '<rootDir>/test/support/infra-setup.ts',
      globalTeardown: '<rootDir>/test/support/infra-teardown.ts',
    },
    {
      ...common,
      // The production build of the web app, held to its budgets (one build per run).
      displayName: 'web',
      testMatch: ['<rootDir>/test/web/**/*.test.ts'],
    },
    {
      ...common,
      // Integration, authorization matrix and end-to-end tests share one local stack, started once.
      displayName: 'stack',
      testMatch: ['<rootDir>/test/{integration,e2e}/**/*.test.ts'],
      // Node's, telling a browser test's afterEach whether the test failed (test/support/stack-environment.ts).
      testEnvironment: '<rootDir>/test/support/stack-environment.ts',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
