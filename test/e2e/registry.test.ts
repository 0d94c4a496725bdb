import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { MESSAGES } from '../../shared/messages';
import { relationId } from '../../shared/relations/relation-types';
import { onScreen, pagePerTest, signInAs, web } from '../support/browser';
import { wellInsideDay } from '../support/clock';
import { mailText, waitForMail } from '../support/mail';
import { type FreshUser, freshUser } from '../support/people';
import { eventually, storedReadings } from '../support/sensor-data';
import { apiAs, uniqueId } from '../support/stack';
import { signInPerson } from './people-fixtures';
import {
  chooseFile,
  mapShowsDevice,
  openPopupAtCentre,
  pngImage,
  registerDevice,
  uniqueSerial,
  withoutWebGl,
} from './registry-fixtures';

/** "Add a device" lists the person's own devices by name: the one named by its id is picked. */
const pickDevice = async (page: Page, deviceId: string) => {
  const picker = page.getByTestId('members-add-device-id');
  await picker.locator(`option[value="${deviceId}"]`).waitFor({ state: 'attached' });
  await picker.selectOption(deviceId);
};
const testPage = pagePerTest();

/** The id part of an object page's URL. */
const idFromUrl = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

describe('end to end: the registry people work in every day', () => {
  let person: FreshUser;

  beforeAll(async () => {
    person = await freshUser({ groups: ['Authenticated_users'], prefix: 'registry' });
  });

  it('a person claims a device, makes an organization with a logo, adds the device, makes a campaign with it and invites a participant', async () => {
    const { device, claimCode } = await registerDevice();
    const page = testPage();
    await signInPerson(page, person, '/dashboard');
    await page.waitForURL(web('/dashboard'));

    // Claim: a wrong code is refused in the API's words; the right one makes the person the owner.
    await page.getByTestId('dashboard-action-claim').click();
    await page.getByTestId('claim-serial').fill(device.serial.toLowerCase());
    await page.getByTestId('claim-submit').click();
    await page.getByTestId('claim-code-error').getByText('Claim code cannot be empty').waitFor();
    await page.getByTestId('claim-code').fill(claimCode);
    await page.getByTestId('claim-submit').click();
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('device-serial').getByText(device.serial).waitFor();
    // The device page names its owner in the viewer's words: to the person who claimed it, "You".
    await page.getByTestId('device-owner').getByText('You', { exact: true }).waitFor();

    // A location, checked before sending, for the map.
    await page.getByTestId('device-edit-name').fill('Rooftop station');
    await page.getByTestId('device-edit-lat').fill('52.52');
    await page.getByTestId('device-edit-lon').fill('');
    await page.getByTestId('device-edit-submit').click();
    await page
      .getByTestId('device-edit-lon-error')
      .getByText('Give a longitude with the latitude, or neither')
      .waitFor();
    await page.getByTestId('device-edit-lon').fill('13.405');
    await page.getByTestId('device-edit-privacy').selectOption('exact');
    await page.getByTestId('device-edit-submit').click();
    await page.getByTestId('device-edit-saved').waitFor();
    await page.getByTestId('device-title').getByText('Rooftop station').waitFor();
    await page.getByTestId('device-location').getByText('52.5200° N, 13.4050° E').waitFor();
    // The device's own map: a click on the device opens its popup, whose link leads to the device.
    if ((await mapShowsDevice(page, device.id)) === 'map') {
      const link = await openPopupAtCentre(page, device.id);
      expect(await link.textContent()).toBe('Rooftop station');
      expect(await link.getAttribute('href')).toBe(`/dashboard/devices/${device.id}`);
    }

    // The dashboard lists the device with its status, and the map shows it (or its fallback, without WebGL).
    await page.goto(web('/dashboard'));
    await page.getByTestId(`my-devices-row-${device.id}`).waitFor();
    await page.getByTestId(`my-devices-status-${device.id}`).waitFor();
    await mapShowsDevice(page, device.id);

    // A new organization; a wrong file type is refused before any upload, then a real PNG goes up with progress.
    await page.getByTestId('dashboard-action-organization').click();
    const organizationName = `Registry ${uniqueId('org').replace(/[^a-z0-9 ]/gi, ' ')}`;
    await page.getByTestId('new-organization-website').fill('example.org');
    await page.getByTestId('new-organization-submit').click();
    await page.getByTestId('new-organization-name-error').getByText('Name cannot be empty').waitFor();
    await page.getByTestId('new-organization-website-error').getByText('Website must start with http').waitFor();
    await page.getByTestId('new-organization-name').fill(organizationName);
    await page.getByTestId('new-organization-website').fill('https://example.org');
    await page.getByTestId('new-organization-submit').click();
    await page.waitForURL(/\/dashboard\/organizations\/[^/]+$/);
    const organizationId = idFromUrl(page.url());
    await page.getByTestId('organization-title').getByText(organizationName).waitFor();

    await chooseFile(page, 'logo-file', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await page.getByTestId('logo-file-error').getByText(MESSAGES.organizationLogoType).waitFor();
    expect(await page.getByTestId('logo-upload').isDisabled()).toBe(true);

    await chooseFile(page, 'logo-file', { name: 'logo.png', mimeType: 'image/png', buffer: pngImage() });
    expect(await page.getByTestId('logo-file-error').count()).toBe(0);
    await page.getByTestId('logo-upload').click();
    await page.getByTestId('logo-done').waitFor();
    expect(await page.getByTestId('logo-percent').textContent()).toBe('100 %');
    expect(await page.getByTestId('logo-progress').getAttribute('value')).toBe('100');
    const logo = page.getByTestId('organization-logo');
    await logo.waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="organization-logo"]') as HTMLImageElement | null)?.naturalWidth === 32,
    );

    // The device joins the organization through its members panel.
    await pickDevice(page, device.id);
    await page.getByTestId('members-add-device-submit').click();
    await page.getByTestId(`members-row-${relationId('organization-device', organizationId, device.id)}`).waitFor();

    // A campaign of the organization: the window is checked (end after start) before anything is sent.
    await page.getByTestId('organization-new-campaign').click();
    const campaignName = `Campaign ${uniqueId('c').replace(/[^a-z0-9 ]/gi, ' ')}`;
    await page.getByTestId('new-campaign-name').fill(campaignName);
    await page.getByTestId('new-campaign-starts').fill('2031-05-02T10:00');
    await page.getByTestId('new-campaign-ends').fill('2031-05-01T10:00');
    await page.getByTestId('new-campaign-submit').click();
    await page.getByTestId('new-campaign-ends-error').getByText('The campaign must end after it starts').waitFor();
    await page.getByTestId('new-campaign-ends').fill('2031-06-30T18:00');
    await page.getByTestId('new-campaign-submit').click();
    await page.waitForURL(/\/dashboard\/campaigns\/[0-9a-f-]{36}$/);
    const campaignId = idFromUrl(page.url());
    await page.getByTestId('campaign-title').getByText(campaignName).waitFor();
    await page.getByTestId('campaign-status').getByText('Planned').waitFor();
    await page.getByTestId('campaign-organization').getByText(organizationId).waitFor();

    await pickDevice(page, device.id);
    await page.getByTestId('members-add-device-submit').click();
    await page.getByTestId(`members-row-${relationId('campaign-device', campaignId, device.id)}`).waitFor();

    // Invite a participant by e-mail: the invite is listed and the mail arrives.
    const participant = `${uniqueId('participant')}@example.com`.toLowerCase();
    await page.getByTestId('participant-invite-email').fill('not-an-address');
    await page.getByTestId('participant-invite-submit').click();
    await page.getByTestId('participant-invite-email-error').waitFor();
    await page.getByTestId('participant-invite-email').fill(participant);
    await page.getByTestId('participant-invite-message').fill('Join our spring measurements');
    await page.getByTestId('participant-invite-submit').click();
    await page.getByTestId('participant-invite-saved').getByText(participant).waitFor();
    await page.getByTestId('invites-sent').getByText(participant).waitFor();
    const mail = await waitForMail(participant, (m) => mailText(m).includes('Join our spring measurements'));
    expect(mailText(mail)).toContain('/invites/');

    // Everything is on the dashboard, with statuses and the logo.
    await page.goto(web('/dashboard'));
    await page.getByTestId(`my-organizations-logo-${organizationId}`).waitFor();
    await page.getByTestId(`my-campaigns-status-${campaignId}`).getByText('Planned').waitFor();
    await page.getByTestId(`my-devices-row-${device.id}`).getByText('Rooftop station').waitFor();

    // What the screens did went through the API.
    const campaigns = apiAs('campaigns', person.token);
    const made = await campaigns.get({ params: { id: campaignId } });
    expect(made).toMatchObject({ name: campaignName, organizationId, status: 'planned' });
    expect(made.endsAt).toBeGreaterThan(made.startsAt);
  });

  it('ingress credentials: the token is shown once, the list keeps only ids; retiring is final', async () => {
    const { device, claimCode } = await registerDevice();
    await apiAs('devices', person.token).claim({ body: { serial: device.serial, claimCode } });
    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));

    await page.getByTestId('credentials-empty').waitFor();
    await page.getByTestId('credentials-create').click();
    const token = (await page.getByTestId('credentials-new-token').textContent()) ?? '';
    const credentialId = token.split('.')[0]!;
    expect(token.length).toBeGreaterThan(credentialId.length + 10);
    await page.getByTestId(`credentials-row-${credentialId}`).waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('credentials-rotate').click();
    await page.waitForFunction((old) => {
      const shown = document.querySelector('[data-testid="credentials-new-token"]')?.textContent ?? '';
      return shown !== '' && !shown.startsWith(`${old}.`);
    }, credentialId);
    await page.getByTestId(`credentials-row-${credentialId}`).waitFor({ state: 'detached' });

    // A fresh load shows the ids only: the secret is gone for good.
    await page.reload();
    await page.getByTestId('credentials-list').waitFor();
    expect(await page.getByTestId('credentials-new').count()).toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('device-retire').click();
    await page.getByTestId('device-status').getByText('Retired').waitFor();
    expect(await page.getByTestId('device-retire').count()).toBe(0);
    expect(await page.getByTestId('credentials').count()).toBe(0);
  });

  it('the device page tells how a device connects, and a device set up from what it shows sends readings both ways', async () => {
    const { device, claimCode } = await registerDevice();
    await apiAs('devices', person.token).claim({ body: { serial: device.serial, claimCode } });
    // The readings are read back from the day partition of `now`.
    await wellInsideDay(60_000);
    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('credentials-create').click();
    const token = (await page.getByTestId('credentials-new-token').textContent()) ?? '';

    // Folded away until asked for; then each value is on screen, named for this device.
    const mqttTopic = page.getByTestId('credentials-connect-mqtt-topic');
    expect(await mqttTopic.isVisible()).toBe(false);
    await page.getByTestId('credentials-connect').getByText('How a device sends its data').click();
    await mqttTopic.waitFor();
    const shown = async (testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim();
    const [httpsRequest = '', brokerUrl = '', userName, clientId, topic = ''] = await Promise.all(
      [
        'credentials-connect-https-url',
        'credentials-connect-mqtt-url',
        'credentials-connect-mqtt-user',
        'credentials-connect-mqtt-client',
        'credentials-connect-mqtt-topic',
      ].map(shown),
    );
    expect(topic).toBe(`$aws/rules/DataIngressReadings_local/devices/${device.id}/readings`);
    expect([userName, clientId]).toEqual([device.id, device.id]);
    expect(httpsRequest).toMatch(/^POST http:\/\/\S+\/data-ingress\/readings$/);
    expect(await shown('credentials-connect-batching')).toMatch(/up to 500 a batch\): ten readings every ten minutes/);

    // A device configured with exactly those values: MQTT through Basic Ingest, and HTTPS.
    const now = Date.now();
    const client = await mqtt.connectAsync(brokerUrl, {
      username: userName,
      password: token,
      clientId,
      reconnectPeriod: 0,
    });
    try {
      const batch = { readings: [{ timestamp: now - 3_000, values: { co2: 433 } }] };
      await client.publishAsync(topic, JSON.stringify(batch), { qos: 1 });
    } finally {
      await client.endAsync();
    }
    const response = await fetch(httpsRequest.replace(/^POST /, ''), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ timestamp: now - 2_000, values: { co2: 434 } }] }),
    });
    expect(response.status).toBe(200);
    const stored = await eventually(async () => {
      const items = await storedReadings(device.id, now);
      return items.length === 2 ? items : undefined;
    });
    expect(stored.map((r) => [r.ts, r.v])).toEqual([
      [now - 3_000, { co2: 433 }],
      [now - 2_000, { co2: 434 }],
    ]);
  }, 150_000);

  it('without WebGL the map says so and plots the same devices, each linked to its page', async () => {
    const { device, claimCode } = await registerDevice();
    const devices = apiAs('devices', person.token);
    await devices.claim({ body: { serial: device.serial, claimCode } });
    await devices.update({
      params: { id: device.id },
      body: { name: 'Harbour buoy', location: { lat: 53.54, lon: 9.99 } },
    });
    const page = testPage();
    await withoutWebGl(page);
    await signInPerson(page, person, '/dashboard');
    await page.waitForURL(web('/dashboard'));
    if (page.viewportSize()!.width <= 640) {
      // A phone's preview asks nothing of WebGL: it shows as on any phone, and the press finds no WebGL and says so,
      // the focus on the notice (decision 104; mapShowsDevice presses it).
      await page.getByTestId('devices-map').waitFor();
      expect(await page.getByTestId('devices-map').getAttribute('data-mode')).toBe('preview');
    }

    expect(await mapShowsDevice(page, device.id)).toBe('fallback');
    await page.getByTestId('devices-map-fallback-reason').getByText('This browser offers no WebGL').waitFor();
    expect(await page.locator('[data-testid="devices-map-canvas"]').count()).toBe(0);
    await page.getByTestId(`devices-map-point-${device.id}`).click();
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('device-title').getByText('Harbour buoy').waitFor();
  });

  it('staff register a device on /admin/devices, read its claim code once, and find it by product line and on the map', async () => {
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin/devices');
    await page.waitForURL(web('/admin/devices'));

    const serial = uniqueSerial('ADM');
    await page.getByTestId('register-serial').fill('x');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('register-serial-error').getByText('Serial is 4 to 32 characters').waitFor();
    await page.getByTestId('register-serial').fill(serial);
    await page.getByTestId('register-product-line').selectOption('al80');
    await page.getByTestId('register-model').fill('AL80 Pro');
    await page.getByTestId('register-firmware').fill('2.1.0');
    await page.getByTestId('register-submit').click();
    const code = (await page.getByTestId('register-claim-code').textContent()) ?? '';
    expect(code.length).toBeGreaterThan(4);
    // The code is shown once: it has the focus and is on screen (on a phone the submit button is a screen below).
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'register-done');
    expect(await onScreen(page.getByTestId('register-claim-code'))).toBe(true);
    const deviceId = `dev-${serial.toLowerCase()}`;
    // Every line's list starts with the first line's newest devices, and other tests register many: the new
    // device is on top once its own line is chosen.
    await page.getByTestId('admin-devices-line').selectOption('al80');
    await page.getByTestId(`admin-devices-row-${deviceId}`).waitFor();

    // Registering the same serial again is refused with the API's message.
    await page.getByTestId('register-serial').fill(serial);
    await page.getByTestId('register-model').fill('AL80 Pro');
    await page.getByTestId('register-firmware').fill('2.1.0');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('register-error').waitFor();

    await page.getByTestId('admin-devices-line').selectOption('sd1');
    await page.getByTestId(`admin-devices-row-${deviceId}`).waitFor({ state: 'detached' });
    await page.getByTestId('admin-devices-line').selectOption('al80');
    await page.getByTestId(`admin-devices-row-${deviceId}`).waitFor();

    // Staff place it; the map of every device shows it.
    await page.getByTestId(`admin-devices-row-${deviceId}`).getByRole('link').click();
    await page.waitForURL(web(`/admin/devices/${deviceId}`));
    await page.getByTestId('device-status').getByText('Provisioned').waitFor();
    await page.getByTestId('device-edit-lat').fill('-33.8688');
    await page.getByTestId('device-edit-lon').fill('151.2093');
    await page.getByTestId('device-edit-submit').click();
    await page.getByTestId('device-edit-saved').waitFor();
    await page.goto(web('/admin/devices'));
    await mapShowsDevice(page, deviceId);
  });
});
