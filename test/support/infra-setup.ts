import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A directory for this run's synthesized templates (`test/infra/synth.ts`, `synthesizedTemplates`). */
export default function infraSetup() {
  process.env.INFRA_SYNTH_CACHE = mkdtempSync(path.join(tmpdir(), 'device-data-synth-'));
}
