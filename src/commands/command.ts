import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { parseInput } from '../tools/invoke.ts';

/**
 * An owner's command: something the CLI does with the master key's authority. It runs against the database
 * directly when the CLI can open it, or inside the running server that holds the embedded database
 * (remote.ts, http/commands-route.ts); either way the same input schema and the same code decide.
 */
export type OwnerCommand = {
  /** Also the last segment of its HTTP route: POST /api/v1/commands/<name>. */
  name: string;
  /** Validates `input` (400 validation_failed) and runs the command. */
  execute(db: Db, input: unknown, now: Date): Promise<unknown>;
};

export function defineCommand<Input extends z.ZodType>(spec: {
  name: string;
  input: Input;
  run(db: Db, input: z.output<Input>, now: Date): Promise<unknown>;
}): OwnerCommand {
  return { name: spec.name, execute: (db, input, now) => spec.run(db, parseInput(spec.input, input), now) };
}
