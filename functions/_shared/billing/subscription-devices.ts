/** The cart's devices, as checkout writes them into the subscription's metadata: `d{n}` = `{productId}|{deviceId}`. */
export const devicesOf = (
  metadata: Record<string, string> | null | undefined,
): { productId: string; deviceId: string }[] =>
  Object.entries(metadata ?? {})
    .filter(([key]) => /^d\d+$/.test(key))
    .map(([, value]) => {
      const [productId, deviceId] = value.split('|');
      return { productId: productId ?? '', deviceId: deviceId ?? '' };
    })
    .filter((pair) => pair.productId && pair.deviceId);

export const deviceMetadata = (pairs: readonly { productId: string; deviceId: string }[]): Record<string, string> =>
  Object.fromEntries(pairs.map((pair, index) => [`d${index}`, `${pair.productId}|${pair.deviceId}`]));
