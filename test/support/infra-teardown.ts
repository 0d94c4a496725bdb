import { rmSync } from 'node:fs';

export default function infraTeardown() {
  if (process.env.INFRA_SYNTH_CACHE) rmSync(process.env.INFRA_SYNTH_CACHE, { recursive: true, force: true });
}
