import type { z } from 'zod';
import type { Actor } from '../access/actor.ts';
import type { Channel } from '../context.ts';
import type { Db } from '../db/client.ts';
import { parseInput } from '../tools/invoke.ts';
import type { ToolRuntime } from '../tools/invoke.ts';

/** Who runs a command, how it arrived and when: what the audit entries of a command that writes name. */
export type CommandRun = {
  now: Date;
  actor: Actor;
  channel: Channel;
  /** What runs a tool call: approving a held call runs the agent's call through the call pipeline. */
  runtime: ToolRuntime;
};

/**
 * An owner's command: something the CLI does with the master key's authority, and the console does for a
 * signed-in owner. It runs against the database directly when the CLI can open it, or inside the running
 * server that holds the embedded database (remote.ts, http/commands-route.ts); either way the same input
 * schema and the same code decide.
 */
export type OwnerCommand = {
  /** Also the last segment of its HTTP route: POST /api/v1/commands/<name>. */
  name: string;
  /** Validates `input` (400 validation_failed) and runs the command. */
  execute(db: Db, input: unknown, run: CommandRun): Promise<unknown>;
};

export function defineCommand<Input extends z.ZodType>(spec: {
  name: string;
  input: Input;
  run(db: Db, input: z.output<Input>, run: CommandRun): Promise<unknown>;
}): OwnerCommand {
  return { name: spec.name, execute: (db, input, run) => spec.run(db, parseInput(spec.input, input), run) };
}
