import { ownValue } from '../../../shared/objects/own-value';
import { labelOf, MEASUREMENTS, unitOf } from '../../../shared/sensor-data/measurements';

/**
 * What SensorThings says about a measurement (docs/decisions/070-sensorthings-mapping.md): its ObservedProperty's
 * definition, a URI of the CF Standard Names (NERC vocabulary server) where the catalogue measurement has one, and
 * its unitOfMeasurement with the UCUM code as the symbol. A measurement or unit the catalogue does not know (a
 * device's own name) gets a URN of this platform: a stable identifier, never a guess at a vocabulary.
 */

const CF = (name: string) => `http://vocab.nerc.ac.uk/standard_name/${name}/`;
const OWN = (name: string) => `urn:device-data-platform:measurement:${name}`;

/** The definition of each catalogue measurement: a CF standard name where one exists. */
const DEFINITIONS: Record<string, { definition: string; description: string }> = {
  pm1: {
    definition: CF('mass_concentration_of_pm1_ambient_aerosol_particles_in_air'),
    description: 'Mass concentration of particles up to 1 µm in air',
  },
  pm2_5: {
    definition: CF('mass_concentration_of_pm2p5_ambient_aerosol_particles_in_air'),
    description: 'Mass concentration of particles up to 2.5 µm in air',
  },
  pm10: {
    definition: CF('mass_concentration_of_pm10_ambient_aerosol_particles_in_air'),
    description: 'Mass concentration of particles up to 10 µm in air',
  },
  temperature: { definition: CF('air_temperature'), description: 'Air temperature' },
  humidity: { definition: CF('relative_humidity'), description: 'Relative humidity of the air' },
  pressure: { definition: CF('air_pressure'), description: 'Air pressure' },
  co2: {
    definition: CF('mole_fraction_of_carbon_dioxide_in_air'),
    description: 'Carbon dioxide in air (mole fraction)',
  },
  no2: {
    definition: CF('mole_fraction_of_nitrogen_dioxide_in_air'),
    description: 'Nitrogen dioxide in air (mole fraction)',
  },
  o3: { definition: CF('mole_fraction_of_ozone_in_air'), description: 'Ozone in air (mole fraction)' },
  voc: {
    definition: OWN('voc'),
    description: 'Volatile organic compounds index of the sensor (no unit; 100 is the recent average)',
  },
  battery: { definition: OWN('battery'), description: "Charge of the device's battery" },
  rssi: { definition: OWN('rssi'), description: 'Strength of the radio signal the device receives' },
};

/** The catalogue's units in UCUM (symbol), with a name and the UCUM definition's URI. */
const UNITS: Record<string, { name: string; symbol: string }> = {
  'µg/m³': { name: 'microgram per cubic metre', symbol: 'ug/m3' },
  '°C': { name: 'degree Celsius', symbol: 'Cel' },
  '%': { name: 'percent', symbol: '%' },
  hPa: { name: 'hectopascal', symbol: 'hPa' },
  ppm: { name: 'part per million', symbol: '[ppm]' },
  ppb: { name: 'part per billion', symbol: '[ppb]' },
  index: { name: 'index (dimensionless)', symbol: '{index}' },
  dBm: { name: 'decibel-milliwatt', symbol: 'dB[mW]' },
};

/** Where UCUM is defined: the unit's code is its symbol. */
export const UCUM_DEFINITION = 'http://unitsofmeasure.org/ucum.html';

export interface UnitOfMeasurement {
  name: string | null;
  symbol: string | null;
  definition: string | null;
}

export const observedPropertyOf = (name: string) => {
  const known = ownValue(DEFINITIONS, name);
  return {
    name: labelOf(name),
    definition: known?.definition ?? OWN(name),
    description: known?.description ?? `The measurement "${name}" as its devices name it`,
  };
};

/**
 * A measurement's unit as SensorThings writes it: UCUM for the catalogue's units; a unit a device declared is
 * passed on as its symbol with no definition (it was never checked against UCUM); none at all is three nulls.
 */
export const unitOfMeasurementOf = (name: string, declared?: Record<string, string>): UnitOfMeasurement => {
  const unit = unitOf(name, declared);
  if (unit === undefined) return { name: null, symbol: null, definition: null };
  const ucum = ownValue(UNITS, unit);
  return ucum ? { ...ucum, definition: UCUM_DEFINITION } : { name: unit, symbol: unit, definition: null };
};

/** Every catalogue measurement name (the ObservedProperties that exist before any device sends one). */
export const CATALOGUE_MEASUREMENTS = Object.keys(MEASUREMENTS);
