/** What the datasets area says to people (docs/datasets.md); the API and the web app both read these. */
export const DATASET_MESSAGES = {
  notFound: (id: string) => `Dataset not found: ${id}`,
  deviceNotPermitted: (name: string, id: string) =>
    `You can make a dataset only of devices you reach by permission (as a member of the device or a campaign): ` +
    `not ${name} (${id})`,
  deviceNotPublic: (name: string, id: string) =>
    `A public dataset can hold only devices whose data is public: ${name} (${id}) is private. Make the dataset ` +
    'permissioned, or leave the device out',
  deviceMadePrivate: (name: string, id: string) =>
    `${name} (${id}) was made private while the dataset was being built; a public dataset can hold only public ` +
    'devices. Build it again as permissioned, or without the device',
  campaignManagerOnly: 'Only a manager of this campaign (or staff) can make a dataset of it',
  campaignNoDevices: 'This campaign holds no devices: add devices to it first',
  campaignTooManyDevices: (count: number, max: number) =>
    `This campaign holds ${count} devices; a dataset holds at most ${max}`,
  campaignNotStarted: 'This campaign has not started yet: there are no readings in its window to freeze',
  nothingToBuild: (audience: string) =>
    `Nothing to build: no device's tier lets this range be downloaded for a ${audience} dataset (the tiers' download ` +
    'windows are measured back from now)',
  versionOnlyFrozen: (id: string, status: string) => `Only a frozen dataset can have a new version; ${id} is ${status}`,
  versionNotAllowed: "Only a dataset's creator, a manager of its campaign, or staff can make a new version of it",
  tooMany: (limit: number, nextAt: number) =>
    `At most ${limit} datasets can be started an hour; the next one can start at ${new Date(nextAt)
      .toISOString()
      .slice(11, 16)} UTC`,
  notQueued: 'The dataset could not be queued; please try again',
  retrying: (attempt: number, max: number) => `Step attempt ${attempt} of ${max} failed; retrying`,
  failed: 'The dataset could not be built; please build it again',
  notFrozen: (id: string, status: string, progress: number) =>
    `Dataset ${id} is not frozen yet (${status}, ${progress} %)`,
  fileNotInDataset: (id: string) => `No such file in dataset ${id}`,
} as const;
