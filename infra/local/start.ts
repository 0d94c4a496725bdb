import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, EPHEMERAL_PORTS } from './ports';
import { startStack } from './stack';

/**
 * `npm start`: the whole product on this machine. Flags: `--prod` (the web app's production build, served as
 * CloudFront serves it, instead of Vite's dev server); `--no-simulate` (the demo devices do not report: by default
 * they send a reading a minute through data-ingress, infra/local/demo-simulator.ts); for the tests `--data-dir DIR`
 * (default `.local`), `--ephemeral` (free ports instead of the fixed ones, and no simulator: tests must not see data
 * move), `--no-web`.
 */
// The SDK warns on every start that Node 20 support ends in 2027; Lambda runs Node 22, so it is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: path.join(rootDir, '.local') },
    ephemeral: { type: 'boolean', default: false },
    'no-web': { type: 'boolean', default: false },
    'no-simulate': { type: 'boolean', default: false },
    prod: { type: 'boolean', default: false },
  },
});

const stack = await startStack({
  rootDir,
  dataDir: values['data-dir']!,
  ports: values.ephemeral ? EPHEMERAL_PORTS : DEFAULT_PORTS,
  web: values['no-web'] ? false : values.prod ? 'prod' : 'dev',
  simulate: !values['no-simulate'] && !values.ephemeral,
  log: (line) => console.log(`[local] ${line}`),
}).catch((error: unknown) => {
  console.error('[local] could not start:', error);
  process.exit(1);
});

const { endpoints, demo } = stack.info;
console.log(
  [
    '',
    `  Web app        ${endpoints.web ? `${endpoints.web}${values.prod ? '  (production build)' : ''}` : '(not started)'}`,
    `  API gateway    ${endpoints.gateway}  (health: ${endpoints.gateway}/health)`,
    `  Mail viewer    ${endpoints.mailViewer}`,
    ...(endpoints.webhookReceiver
      ? [`  Webhooks       ${endpoints.webhookReceiver}  (what demo-org-1's webhook received, verified)`]
      : []),
    `  MQTT           ${endpoints.mqtt}  ${endpoints.mqttWs}`,
    ...(endpoints.rum ? [`  RUM collector  ${endpoints.rum}/summary  (visitors who switched measurements on)`] : []),
    `  Stack file     ${path.join(stack.info.dataDir, 'stack.json')}`,
    `  Demo accounts  ${demo.accounts.map((a) => a.email).join(', ')}`,
    demo.simulated?.length
      ? `  Demo devices   report every minute: ${demo.simulated.map((d) => `${d.deviceId} (${d.link.toUpperCase()})`).join(', ')}  (--no-simulate: off)`
      : '  Demo devices   not reporting (--no-simulate, --ephemeral)',
    `  Password       ${demo.password}  (local only)`,
    ...(demo.identityProvider && endpoints.demoIdp
      ? [
          `  ${demo.identityProvider.label} (identity provider)  ${endpoints.demoIdp}`,
          `    its people   ${demo.identityProvider.accounts.map((a) => a.email).join(', ')}`,
          `    password     ${demo.identityProvider.password}  (local only)`,
        ]
      : []),
    '',
  ].join('\n'),
);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`[local] ${signal}: stopping`);
  await stack.stop();
  process.exit(0);
};
// One stop path for every signal. Vite's dev server exits the process by itself on SIGTERM and at the end of stdin,
// before the stack has stopped: its listeners go, and the same stop runs for all of them. Every acknowledged write
// is on disk already (the fauxqs write-through, dynalite's log), so even a kill -9 loses nothing.
process.removeAllListeners('SIGTERM');
process.stdin.removeAllListeners('end');
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));
