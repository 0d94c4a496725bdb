/**
 * Who sees where a device is (docs/devices.md): managers (owner, administrators, staff) exactly; everyone else as
 * the device's privacy says, `exact`, `approximate` (rounded) or `hidden`. One rule for the devices area's answers and
 * the SensorThings service's Locations, HistoricalLocations and FeaturesOfInterest.
 */

export interface Place {
  lat: number;
  lon: number;
}

/** Two decimals of a degree: about 1.1 km of latitude, less of longitude away from the equator. */
export const approximate = ({ lat, lon }: Place): Place => ({
  lat: Math.round(lat * 100) / 100,
  lon: Math.round(lon * 100) / 100,
});

/** A place as a caller may see it: itself, rounded, or nothing. */
export const placeFor = <P extends Place>(
  place: P,
  privacy: 'exact' | 'approximate' | 'hidden' | undefined,
  manages: boolean,
): { place: P; approximate: boolean } | undefined => {
  if (manages || privacy === 'exact') return { place, approximate: false };
  if (privacy === 'approximate') return { place: { ...place, ...approximate(place) }, approximate: true };
  return undefined;
};
