import { z } from 'zod';

/**
 * Advice on an accepted input that is probably a mistake (docs/behaviour.md#warnings): the call succeeds, and the answer
 * carries the warning beside the result, so the exact result shapes stay exact.
 */
export const Warning = z.strictObject({
  code: z.enum(['amount_below_one_krone']).meta({ description: 'What looks wrong; amount_below_one_krone: an amount under 100 øre.' }),
  message: z.string().meta({ description: 'What was done and what the caller probably meant.' }),
});
export type Warning = z.infer<typeof Warning>;
