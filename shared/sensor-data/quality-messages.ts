/** The data-quality routes' words (docs/data-quality.md), beside their rules; shared/messages.ts holds the rest. */
const iso = (ms: number) => new Date(ms).toISOString();

export const QUALITY_MESSAGES = {
  mayNotCurate:
    "Only the device's owner and administrators, a manager of a campaign holding it (within the campaign's window) and staff may calibrate it or exclude its data",
  outsideCampaignWindow: (startsAt: number, endsAt: number) =>
    `A campaign manager may calibrate a device or exclude its data only within the campaign's window (${iso(startsAt)} to ${iso(endsAt)})`,
  campaignManagersOnly: "Only the campaign's managers and staff may calibrate its devices or exclude their data",
  campaignWithoutWindow: (id: string) => `Campaign ${id} has no window to hold the change`,
  unknownMeasurement: (name: string) => `${name} is not a measurement this device has sent`,
  noDeviceHasMeasurement: (names: readonly string[]) =>
    `No device of the campaign has sent ${names.join(' and ')}: nothing to calibrate`,
  /**
   * An end (`formula.kind: 'none'`) must end something: a calibration in force at its start. `startsAt`: when the
   * next version of the measurement starts, for an end that comes before it.
   */
  nothingToEnd: (measurement: string, at: number, startsAt?: number) =>
    startsAt === undefined
      ? `No calibration of ${measurement} is in force at ${iso(at)}: there is nothing to end`
      : `effectiveFrom (${iso(at)}) is before the calibration of ${measurement} starts (${iso(startsAt)}): there is nothing to end then`,
  skippedNothingToEnd: (measurement: string) => `has no calibration of ${measurement} in force then`,
  skippedMeasurement: (names: readonly string[]) => `has not sent ${names.join(' and ')}`,
  noDevices: 'The campaign holds no devices: there is nothing to exclude',
  exclusionNotFound: (id: string) => `Exclusion not found: ${id}`,
  busy: "The device's data quality is being changed by someone else just now; please try again",
};
