/** @jest-environment jsdom */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import * as z from 'zod';
import { checkWith } from '../lib/form-check';
import { TextField } from '../lib/form-fields';
import { useCheckedSubmit } from '../lib/use-checked-submit';
import { EditForm } from './edit-form';

/** What a person sees of the form kit: the check's words before anything is sent, the change under way, "Saved.". */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const Names = z.object({
  name: z.string().trim().min(1, 'Give the sensor a name'),
  note: z.string().max(10, 'A note is at most 10 characters'),
});

let root: Root;
let frame: HTMLDivElement;
let client: QueryClient;
/** What the form sent, each answered when the test says. */
let sent: { body: z.input<typeof Names>; answer: (refusal?: string) => void }[];
let reads: number;

beforeEach(() => {
  frame = document.createElement('div');
  document.body.append(frame);
  root = createRoot(frame);
  client = new QueryClient();
  sent = [];
  reads = 0;
});

afterEach(() => {
  act(() => root.unmount());
  frame.remove();
});

const SensorForm = () => {
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  // What the change touches: read again once it is saved.
  useQuery({ queryKey: ['sensor'], queryFn: async () => ++reads });
  const form = useCheckedSubmit(
    () => checkWith(Names, { name, note }),
    (body) =>
      new Promise<string>((resolve, reject) =>
        sent.push({ body, answer: (refusal) => (refusal ? reject(new Error(refusal)) : resolve('Saved.')) }),
      ),
    [['sensor']],
  );
  return (
    <EditForm name="sensor" title="Sensor" form={form} submitText="Save" busyText="Saving…">
      <TextField id="sensor-name" label="Name" value={name} onChange={setName} error={form.fields.name} />
      <TextField id="sensor-note" label="Note" value={note} onChange={setNote} error={form.fields.note} />
    </EditForm>
  );
};

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
const submit = () => act(async () => byTestId('sensor-submit')!.click());

/** Types as a person does: React hears the input event the browser fires. */
const type = (id: string, text: string) =>
  act(async () => {
    const input = byTestId(id) as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });

const draw = async () => {
  await act(async () =>
    root.render(
      <QueryClientProvider client={client}>
        <SensorForm />
      </QueryClientProvider>,
    ),
  );
  await settle();
};

describe('an edit form', () => {
  it("says what is wrong in the contract's words, by the field and in its alert, and sends nothing", async () => {
    await draw();
    await type('sensor-note', 'far too long a note');
    await submit();

    expect(sent).toEqual([]);
    expect(byTestId('sensor-error')?.getAttribute('role')).toBe('alert');
    expect(byTestId('sensor-error')?.textContent).toBe('Give the sensor a name');
    // Each field says its own, and is tied to it for a screen reader.
    const name = byTestId('sensor-name')!;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe('Give the sensor a name');
    expect(byTestId('sensor-note-error')?.textContent).toBe('A note is at most 10 characters');

    // Put right as the person types, before any submit: the name's message goes, the note's stays and leads the alert.
    await type('sensor-name', 'Roof');
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
    expect(byTestId('sensor-name-error')).toBeNull();
    expect(byTestId('sensor-error')?.textContent).toBe('A note is at most 10 characters');
    await type('sensor-note', 'short');
    expect(byTestId('sensor-note-error')).toBeNull();
    expect(byTestId('sensor-error')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('waits while the change is under way, then says "Saved." and reads again what it touched', async () => {
    await draw();
    expect(reads).toBe(1);
    await type('sensor-name', 'Roof');
    await submit();

    expect(sent.map(({ body }) => body)).toEqual([{ name: 'Roof', note: '' }]);
    const button = byTestId('sensor-submit') as HTMLButtonElement;
    expect(button.textContent).toBe('Saving…');
    expect(button.disabled).toBe(true);
    expect(byTestId('sensor-saved')).toBeNull();

    await act(async () => sent[0]!.answer());
    await settle();
    expect(byTestId('sensor-saved')?.getAttribute('role')).toBe('status');
    expect(byTestId('sensor-saved')?.textContent).toBe('Saved.');
    expect(byTestId('sensor-error')).toBeNull();
    expect(button.textContent).toBe('Save');
    expect(reads).toBe(2);

    // "Saved." was about what was sent: a further edit is not saved yet.
    await type('sensor-note', 'windy');
    expect(byTestId('sensor-saved')).toBeNull();
  });

  it("shows the API's refusal in its alert, and the form as it was typed", async () => {
    await draw();
    await type('sensor-name', 'Roof');
    await submit();
    await act(async () => sent[0]!.answer('A sensor named Roof exists'));
    await settle();

    expect(byTestId('sensor-error')?.textContent).toBe('A sensor named Roof exists');
    expect(byTestId('sensor-saved')).toBeNull();
    expect((byTestId('sensor-name') as HTMLInputElement).value).toBe('Roof');
    expect(reads).toBe(1);
  });
});
