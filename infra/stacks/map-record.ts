/** Builds a record with the same keys as `record` (e.g. TABLES → the tables' constructs), keeping the key type. */
export const mapRecord = <K extends string, V, R>(record: Record<K, V>, build: (value: V, key: K) => R): Record<K, R> =>
  Object.fromEntries((Object.entries(record) as [K, V][]).map(([key, value]) => [key, build(value, key)])) as Record<
    K,
    R
  >;
