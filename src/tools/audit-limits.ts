/**
 * More than a person can judge in one session-undo preview; an older part is undone in a second pass.
 * Its own module because audit.ts reads it while the tool registry loads, and audit-session.ts sits on an
 * import cycle with the registry (audit-revert.ts → revert-rights.ts → registry.ts).
 */
export const SESSION_MAX_ENTRIES = 500;
