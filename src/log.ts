/** The slice of pino every layer logs through; tests and the CLI pass their own. */
export type Log = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};
