/**
 * A circuit around a dependency that can hang rather than fail: after `threshold` failures in a row it
 * opens for `coolDownMs`, and callers skip the dependency instead of waiting out a timeout each. Once the
 * cool-down is over one call is let through as a probe; its success closes the circuit, its failure
 * opens it again.
 */
export type CircuitBreaker = {
  /** Whether this call should try the dependency (false while open, and for all but the probe). */
  allows(): boolean;
  succeeded(): void;
  failed(): void;
  isOpen(): boolean;
};

export type CircuitOptions = { threshold: number; coolDownMs: number; now?: () => number };

export function createCircuitBreaker(options: CircuitOptions): CircuitBreaker {
  const now = options.now ?? Date.now;
  let failures = 0;
  let openUntil = 0;
  let probing = false;
  return {
    allows() {
      if (failures < options.threshold) return true;
      if (probing || now() < openUntil) return false;
      probing = true;
      return true;
    },
    succeeded() {
      failures = 0;
      probing = false;
    },
    failed() {
      failures += 1;
      probing = false;
      if (failures >= options.threshold) openUntil = now() + options.coolDownMs;
    },
    isOpen: () => failures >= options.threshold,
  };
}
