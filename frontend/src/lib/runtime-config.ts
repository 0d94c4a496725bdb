import { checkEndpointSettings } from '../../../shared/config/endpoints';
import { RuntimeConfig } from '../../../shared/config/runtime-config';

export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

let current: RuntimeConfig | undefined;

/**
 * Fetches and validates `/runtime-config.json` once at boot. The same bundle runs locally and in the
 * cloud; only this document differs, so nothing in the app branches on the environment.
 */
export const loadRuntimeConfig = async (fetchFn: typeof fetch = fetch): Promise<RuntimeConfig> => {
  const response = await fetchFn(RUNTIME_CONFIG_PATH, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(`Could not load ${RUNTIME_CONFIG_PATH}: HTTP ${response.status}`);
  }
  const parsed = RuntimeConfig.safeParse(await response.json());
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`Invalid ${RUNTIME_CONFIG_PATH}: ${issues}`);
  }
  // Spec §8: the sign-in service and the live view's signing need the region; without it nothing can be called.
  checkEndpointSettings({ service: 'runtime-config', region: parsed.data.region });
  current = parsed.data;
  return current;
};

/** The configuration loaded at boot; the app renders only after it is there. */
export const runtimeConfig = (): RuntimeConfig => {
  if (!current) throw new Error('Runtime configuration is not loaded yet');
  return current;
};
