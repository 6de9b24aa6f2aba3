import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formOf, vocabularyOf } from '../../src/admin/pages/search-words.ts';
import { EYEWEAR_VOCABULARY } from '../../src/seed/search-vocabulary.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { formFields, page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let owner = '';
let manager = '';
beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'anna@shop.dk', 'manager');
});
afterAll(async () => t.close());

const vocabulary = async () => (await t.call('settings.get', {}, master)).body.result.searchVocabulary;
const ACTION = '/admin/settings/search-words';

describe('the search words page', () => {
  it('reads the text boxes back into the vocabulary they show', () => {
    expect(vocabularyOf(formOf(EYEWEAR_VOCABULARY))).toEqual({ vocabulary: EYEWEAR_VOCABULARY });
    expect(vocabularyOf({ words: 'black = sort\n\nBlue Light = blålys, blålysbriller', ignore: 'for, with\nframe' }))
      .toEqual({ vocabulary: { words: { black: ['sort'], 'blue light': ['blålys', 'blålysbriller'] }, ignore: ['for', 'with', 'frame'] } });
    expect(vocabularyOf({ words: 'black = sort\nbrown', ignore: '' })).toEqual({ line: 2 });
  });

  it('starts empty in a new shop, and saves what an owner types through settings.update', async () => {
    const empty = await page(t.app, owner, ACTION);
    expect(empty.response.body).toContain('0 words or phrases, 0 ignored words.');
    const saved = await post(t.app, owner, ACTION, { ...formFields(empty.response.body, ACTION), words: 'black = sort\nsunglasses = solbriller', ignore: 'for' });
    expect(saved.headers.location).toBe(`${ACTION}?done=saved`);
    expect(await vocabulary()).toEqual({ words: { black: ['sort'], sunglasses: ['solbriller'] }, ignore: ['for'] });
    const again = await page(t.app, owner, ACTION);
    expect(again.response.body).toContain('2 words or phrases, 1 ignored words.');
    expect((await post(t.app, owner, ACTION, formFields(again.response.body, ACTION))).headers.location).toBe(`${ACTION}?done=unchanged`);
  });

  it('refuses a line without "=" by its number, and a save over words changed meanwhile', async () => {
    const drawn = formFields((await page(t.app, owner, ACTION)).response.body, ACTION);
    const bad = await post(t.app, owner, ACTION, { ...drawn, words: 'black = sort\nbrown' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Line 2 is not &quot;word = catalog word&quot;.');
    expect((await t.call('settings.update', { searchVocabulary: { words: { red: ['rød'] }, ignore: [] } }, master)).status).toBe(200);
    const stale = await post(t.app, owner, ACTION, { ...drawn, words: 'black = sort\ngreen = grøn' });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('The search words changed while you were editing them, so nothing was saved.');
    expect(await vocabulary()).toEqual({ words: { red: ['rød'] }, ignore: [] });
  });

  it('shows a manager the words without a form', async () => {
    const view = await page(t.app, manager, ACTION);
    expect(view.response.statusCode).toBe(200);
    expect(view.response.body).toContain('<pre>red = rød</pre>');
    expect(view.response.body).not.toContain(`<form method="post" action="${ACTION}"`);
  });
});
