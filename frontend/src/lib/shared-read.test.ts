import { sharedWhileUnderWay } from './shared-read';

/** A read whose answers the test gives, one per start. */
const controlledRead = () => {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { read, pending };
};

describe('sharedWhileUnderWay', () => {
  it('gives the callers that ask while a read is under way that one read', async () => {
    const { read, pending } = controlledRead();
    const shared = sharedWhileUnderWay(read);
    const answers = Promise.all([shared.get(), shared.get(), shared.get()]);
    expect(pending).toHaveLength(1);
    pending[0]!.resolve(7);
    await expect(answers).resolves.toEqual([7, 7, 7]);
  });

  it('starts a new read for a call made after the last one settled', async () => {
    const { read, pending } = controlledRead();
    const shared = sharedWhileUnderWay(read);
    const first = shared.get();
    pending[0]!.resolve(1);
    await first;
    const second = shared.get();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(2);
    await expect(second).resolves.toBe(2);
  });

  it('shares a failure with the callers waiting, and reads anew afterwards', async () => {
    const { read, pending } = controlledRead();
    const shared = sharedWhileUnderWay(read);
    const waiting = [shared.get(), shared.get()];
    pending[0]!.reject(new Error('refresh refused'));
    for (const call of waiting) await expect(call).rejects.toThrow('refresh refused');
    const after = shared.get();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(3);
    await expect(after).resolves.toBe(3);
  });

  it('starts anew after drop(), and the older read settling does not drop the newer', async () => {
    const { read, pending } = controlledRead();
    const shared = sharedWhileUnderWay(read);
    const before = shared.get();
    shared.drop();
    const after = shared.get();
    expect(pending).toHaveLength(2);
    pending[0]!.resolve(1);
    await expect(before).resolves.toBe(1);
    // The newer read is still the one shared: a third caller joins it rather than starting another.
    const joined = shared.get();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(2);
    await expect(Promise.all([after, joined])).resolves.toEqual([2, 2]);
  });
});
