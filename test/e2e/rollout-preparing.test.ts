import { axeViolations } from '../support/axe';
import { pagePerTest, signInAs } from '../support/browser';
import { freshMajor, preparingRollout, seedFleet, seedRelease } from '../support/code-releases';
import { freshDevice } from '../support/sensor-data';
import { useStackEnvironment } from '../support/stack-env';

const testPage = pagePerTest();
let restoreEnvironment: () => void;
beforeAll(() => {
  restoreEnvironment = useStackEnvironment();
});
afterAll(() => restoreEnvironment());

describe('end to end: a rollout that is still assigning its devices', () => {
  it('its release’s list and its page say how far it is and offer only Halt, then it turns active by itself', async () => {
    const page = testPage();
    const release = await seedRelease({ results: ['Pass'], version: `${freshMajor()}.0.0` });
    const devices = await Promise.all([freshDevice(), freshDevice()]);
    const { rollout, sendHeldStep } = await preparingRollout(
      release.id,
      devices.map((device) => device.id),
    );
    expect(rollout.status).toBe('preparing');

    await signInAs(page, 'admin@example.com', `/admin/releases/${encodeURIComponent(release.id)}`);
    const row = page.getByTestId(`rollout-row-${rollout.id}`);
    await row.getByTestId('rollout-preparing').waitFor();
    expect(await row.getByTestId('rollout-preparing').textContent()).toBe(
      'Assigning its devices: 0 of 2. Nothing is offered until every one is.',
    );
    expect(await row.getByTestId('rollout-status').textContent()).toBe('Preparing');
    expect(await row.getByTestId('rollout-stage').textContent()).toBe(
      'Stage 1 of 4: Canary (starts once every device is assigned)',
    );
    expect(await row.getByTestId('rollout-halt').textContent()).toBe('Halt');
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${new URL(page.url()).origin}/admin/rollouts/${encodeURIComponent(rollout.id)}`);
    const note = page.getByTestId('rollout-preparing');
    await note.waitFor();
    expect(await note.textContent()).toBe(
      'Assigning its devices: 0 of 2. Nothing is offered until every device is assigned; its first stage, Canary, ' +
        'starts then.',
    );
    expect(await note.getAttribute('role')).toBe('status');
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Preparing');
    expect(await page.getByTestId('rollout-actions-later').textContent()).toBe(
      'Advancing comes once every device is assigned and the rollout is active.',
    );
    expect(await page.getByTestId('rollout-halt-submit').textContent()).toBe('Halt');
    for (const action of ['rollout-advance', 'rollout-resume', 'rollout-rollback'])
      expect(await page.getByTestId(action).count()).toBe(0);
    expect(await page.getByTestId('rollout-halt').count()).toBe(0);
    expect(await page.getByTestId('stage-segment-0').textContent()).toContain('Canary waiting');
    expect(await page.getByTestId('stage-counts-0').textContent()).not.toContain('started');
    expect(await axeViolations(page)).toEqual([]);

    // The stack's worker takes the step: the page, read again every few seconds, turns active with no reload.
    await sendHeldStep();
    await page.getByTestId('rollout-advance').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Active');
    expect(await note.count()).toBe(0);
    expect(await page.getByTestId('rollout-actions-later').count()).toBe(0);
    expect(await page.getByTestId('stage-segment-0').textContent()).toContain('Canary running');
  });

  it('starting one over more than 1,000 devices from the release page says they are being assigned, and it turns active', async () => {
    const page = testPage();
    const release = await seedRelease({ results: ['Pass'], version: `${freshMajor()}.0.0` });
    const fleet = await seedFleet(1_100);
    await signInAs(page, 'admin@example.com', `/admin/releases/${encodeURIComponent(release.id)}`);
    await page.getByTestId('rollout-gate').getByText('may roll out').waitFor();
    await page.getByTestId('rollout-devices').fill(fleet.join('\n'));
    await page.getByTestId('rollout-submit').click();
    await page
      .getByTestId('rollout-saved')
      .getByText('Rollout started: its 1,100 devices are being assigned; nothing is offered until every one is.')
      .waitFor();
    // The stack's worker assigns them, 500 a step; the list, read again every few seconds while one prepares, shows it.
    const row = page.getByTestId('rollouts').locator('[data-testid^="rollout-row-"]').first();
    await row.getByTestId('rollout-status').getByText('Active').waitFor({ timeout: 60_000 });
    expect(await row.getByTestId('rollout-preparing').count()).toBe(0);
    expect(await row.getByTestId('rollout-adoption').textContent()).toBe('0 of 1,100 devices run it (0 %)');
  });

  it('halted while it assigns its devices, says nothing was offered and offers no roll back; resumed, it turns active', async () => {
    const page = testPage();
    const release = await seedRelease({ results: ['Pass'], version: `${freshMajor()}.0.0` });
    const devices = await Promise.all([freshDevice(), freshDevice()]);
    const { rollout } = await preparingRollout(
      release.id,
      devices.map((device) => device.id),
    );
    await signInAs(page, 'admin@example.com', `/admin/rollouts/${encodeURIComponent(rollout.id)}`);
    await page.getByTestId('rollout-preparing').waitFor();
    await page.getByTestId('rollout-halt-reason-input').fill('Wrong fleet');
    await page.getByTestId('rollout-halt-submit').click();

    const halt = page.getByTestId('rollout-halt');
    await halt.waitFor();
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Halted');
    expect(await halt.getByTestId('rollout-halt-reason').textContent()).toBe('Wrong fleet');
    expect(await halt.getByTestId('rollout-halted-preparing').textContent()).toBe(
      'Halted while assigning its devices (0 of 2 assigned): nothing was offered. Resuming goes on assigning them.',
    );
    expect(await page.getByTestId('rollout-preparing').count()).toBe(0);
    expect(await page.getByTestId('rollout-rollback').count()).toBe(0);
    expect(await page.getByTestId('stage-segment-0').textContent()).toContain('Canary waiting');
    const resume = page.getByTestId('rollout-resume');
    expect(await resume.locator('xpath=..').textContent()).toBe(
      'Resume Assigning its devices goes on; nothing is offered until every one is.',
    );
    expect(await axeViolations(page)).toEqual([]);

    // The resume queues its step on the stack's rollouts queue; the worker assigns both devices.
    await resume.click();
    await page.getByTestId('rollout-advance').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Active');
    expect(await halt.count()).toBe(0);
    expect(await page.getByTestId('stage-segment-0').textContent()).toContain('Canary running');
  });
});
