import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImportArgs, runImport } from '../../src/import/command.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

function shopFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'butik-words-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const importWords = (csv: string) => runImport(t.database.db, parseImportArgs([shopFiles({ 'search_words.csv': csv })]), new Date());
const vocabulary = async () => (await t.call('settings.get', {}, master)).body.result.searchVocabulary;

describe('search_words.csv', () => {
  it('becomes the shop\'s whole search vocabulary, ignored words included, audited so that a revert undoes it', async () => {
    const first = await importWords('word,means\nblack,sort\nblue light,blålys;blålysbriller\nfor,\n');
    expect(first.exitCode, first.stderr.join('\n')).toBe(0);
    expect(first.stdout).toEqual(['search_words.csv: 1 created, 0 updated, 0 unchanged']);
    expect(await vocabulary()).toEqual({ words: { black: ['sort'], 'blue light': ['blålys', 'blålysbriller'] }, ignore: ['for'] });

    const again = await importWords('word,means\nblue light,blålys;blålysbriller\nblack,sort\nfor,\n');
    expect(again.stdout).toEqual(['search_words.csv: 0 created, 0 updated, 1 unchanged']);

    const replaced = await importWords('word,means\nred,rød\n');
    expect(replaced.stdout).toEqual(['search_words.csv: 0 created, 1 updated, 0 unchanged']);
    expect(await vocabulary()).toEqual({ words: { red: ['rød'] }, ignore: [] });
    // An import's entries are the owner's to revert (docs/behaviour.md#audit-and-revert).
    const [entry] = (await t.call('audit.list', { tool: 'import', limit: 1 }, master)).body.result;
    expect(entry).toMatchObject({ targetType: 'settings', targetId: 'searchVocabulary' });
    expect((await t.call('audit.revert', { entryId: entry.id }, master)).status).toBe(200);
    expect((await vocabulary()).words).toEqual({ black: ['sort'], 'blue light': ['blålys', 'blålysbriller'] });
  });

  it('refuses a phrase of four words by its line, and writes nothing', async () => {
    const refused = await importWords('word,means\nblack,sort\nvery long phrase here,x\n');
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr.join('\n')).toMatch(/search_words\.csv:3: word: at most 3 words/);
    expect((await vocabulary()).words).toEqual({ black: ['sort'], 'blue light': ['blålys', 'blålysbriller'] });
  });
});
