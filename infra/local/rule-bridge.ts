import type { Aedes, AedesPublishPacket, Client } from 'aedes';
import { ruleTopicOf } from '../../shared/iot/topics';

/** MQTT topic filter matching (`+` one level, `#` the rest), as IoT Core rules use it. */
export const topicMatches = (filter: string, topic: string): boolean => {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
};

export interface LocalRule {
  name: string;
  /** The rule's name as IoT Core knows it (`iotRuleName(name, env)`): what a Basic Ingest topic names. */
  ruleName: string;
  topicFilter: string;
  /** Receives what the rule's `SELECT *, topic() AS topic, principal() AS principal` would (iotRuleSql). */
  handler: (event: Record<string, unknown> & { topic: string }) => Promise<unknown>;
}

/**
 * The local stand-in for IoT Core topic rules: every publish from a client whose topic matches a rule's
 * filter invokes the rule's handler, as the rule's Lambda action would. A Basic Ingest publish
 * (`$aws/rules/{ruleName}/{topic}`, decision 043) invokes only the rule it names, with the topic after the prefix, as
 * IoT Core's `topic()` gives it; nobody subscribes to those topics. Payloads that are not a JSON object are reported,
 * not dropped silently.
 */
export const startRuleBridge = (
  broker: Aedes,
  rules: readonly LocalRule[],
  onError: (rule: string, error: unknown) => void = (rule, error) => console.error(`Rule ${rule} failed:`, error),
  /** The authorizer's principal id of a publishing client, as IoT SQL's `principal()` gives it. */
  principalOf: (client: Client) => string | undefined = () => undefined,
) => {
  const pending = new Set<Promise<unknown>>();
  const listener = (packet: AedesPublishPacket, client: Client | null) => {
    if (!client || packet.topic.startsWith('$SYS')) return;
    const { topic, rule: named } = ruleTopicOf(packet.topic);
    for (const rule of rules) {
      if (named !== undefined && named !== rule.ruleName) continue;
      if (!topicMatches(rule.topicFilter, topic)) continue;
      let payload: unknown;
      try {
        payload = JSON.parse(packet.payload.toString());
      } catch {
        onError(rule.name, new Error(`Payload on ${topic} is not JSON`));
        continue;
      }
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
        onError(rule.name, new Error(`Payload on ${topic} is not a JSON object`));
        continue;
      }
      const principal = principalOf(client);
      const run = rule
        .handler({ ...(payload as Record<string, unknown>), topic, ...(principal ? { principal } : {}) })
        .catch((error: unknown) => onError(rule.name, error))
        .finally(() => pending.delete(run));
      pending.add(run);
    }
  };
  broker.on('publish', listener);
  return {
    stop: async () => {
      broker.removeListener('publish', listener);
      await Promise.all(pending);
    },
  };
};
