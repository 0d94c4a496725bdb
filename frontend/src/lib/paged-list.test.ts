import { appendPage } from './paged-list';

describe('a shown paged list', () => {
  it('appends a page, keeping rows already shown in place with their newer copy', () => {
    const shown = [
      { id: 'new', v: 1 },
      { id: 'a', v: 1 },
    ];
    expect(
      appendPage(shown, [
        { id: 'a', v: 2 },
        { id: 'b', v: 1 },
      ]),
    ).toEqual([
      { id: 'new', v: 1 },
      { id: 'a', v: 2 },
      { id: 'b', v: 1 },
    ]);
  });
});
