/**
 * A JSON value from outside, as the document client stores it exactly. The SDK's marshaller tells a plain object by
 * its `constructor` (util-dynamodb `convertToAttr`), so an object that holds a key named `constructor`
 * (`{"constructor": "x"}`, `{"constructor": {"name": "Set"}}`) is refused, or stored as a string or a set. A Map is
 * told by its class, never by its entries: every object of the value goes to the marshaller as one. Read back, each
 * is an object again.
 */
export const storableJson = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object') {
    return new Map(Object.entries(value).map(([key, inner]) => [key, storableJson(inner)]));
  }
  return value;
};
