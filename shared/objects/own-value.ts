/**
 * A value a record holds itself, looked up by a name that came from outside (a path, a body, a device, an event).
 * A plain object also answers the names it inherits (`__proto__`, `constructor`, `toString`, `valueOf`, …) with
 * Object.prototype's members: looked up this way, those are names it does not hold, as any unknown name.
 */
export const ownValue = <T>(record: Readonly<Record<string, T>>, name: string): T | undefined =>
  Object.hasOwn(record, name) ? record[name] : undefined;
