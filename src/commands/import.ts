import { z } from 'zod';
import { importChecked } from '../import/apply.ts';
import { IMPORT_FILES } from '../import/files.ts';
import { readImportSources } from '../import/read-files.ts';
import { Slug } from '../schema/common.ts';
import { Currency } from '../shop/settings.ts';
import { defineCommand } from './command.ts';

/** The most one upload may carry; the console's multipart limit holds the body to it before this sees it. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** The files the import knows, in the order it writes them. */
export const IMPORT_FILE_NAMES = Object.keys(IMPORT_FILES);

const ImportFile = z.strictObject({
  name: z.string().trim().min(1).max(200).meta({ description: `The file's name: one of ${IMPORT_FILE_NAMES.join(', ')}; others are skipped.` }),
  text: z.string().max(IMPORT_MAX_BYTES),
});

/**
 * `butik import` for files sent rather than named on a disk: the console's upload. The same reading, checks
 * and transaction as the command line; its audit entries name whoever ran it.
 */
export const importCommands = [
  defineCommand({
    name: 'import',
    input: z.strictObject({
      files: z.array(ImportFile).min(1).max(IMPORT_FILE_NAMES.length * 2),
      currency: Currency.optional(),
      category: Slug.optional(),
      dryRun: z.boolean(),
    }),
    run: async (db, input, { now, actor, channel }) => importChecked(
      db,
      await readImportSources(input.files.map((file) => ({ path: file.name, content: () => file.text }))),
      {
        dryRun: input.dryRun, now, by: { actor, channel },
        ...(input.currency === undefined ? {} : { currency: input.currency }),
        ...(input.category === undefined ? {} : { category: input.category }),
      },
    ),
  }),
];
