import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from '../../src/access/circuit-breaker.ts';

describe('the circuit breaker around Redis', () => {
  function breaker() {
    let clock = 0;
    const circuit = createCircuitBreaker({ threshold: 3, coolDownMs: 5_000, now: () => clock });
    return { circuit, advance: (ms: number) => { clock += ms; } };
  }

  it('stays closed through fewer failures in a row than the threshold', () => {
    const { circuit } = breaker();
    circuit.failed();
    circuit.failed();
    circuit.succeeded();
    circuit.failed();
    circuit.failed();
    expect(circuit.isOpen()).toBe(false);
    expect(circuit.allows()).toBe(true);
  });

  it('opens after three failures in a row and lets nothing through during the cool-down', () => {
    const { circuit, advance } = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failed();
    expect(circuit.isOpen()).toBe(true);
    expect(circuit.allows()).toBe(false);
    advance(4_999);
    expect(circuit.allows()).toBe(false);
  });

  it('lets exactly one probe through after the cool-down; its success closes the circuit', () => {
    const { circuit, advance } = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failed();
    advance(5_000);
    expect(circuit.allows()).toBe(true);
    expect(circuit.allows()).toBe(false);
    circuit.succeeded();
    expect(circuit.isOpen()).toBe(false);
    expect(circuit.allows()).toBe(true);
  });

  it('opens again for a full cool-down when the probe fails', () => {
    const { circuit, advance } = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failed();
    advance(5_000);
    expect(circuit.allows()).toBe(true);
    circuit.failed();
    expect(circuit.allows()).toBe(false);
    advance(5_000);
    expect(circuit.allows()).toBe(true);
  });
});
