import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveBaseUrl } from '../src/config.ts';
import { ucpFaceSettings } from '../src/ucp/face-settings.ts';
import { runButik } from './helpers/butik-process.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

/** The UCP face's start-up check of its raw settings (ucp/face-settings.ts), as `butik serve` runs it with UCP on. */
function ucpStartError(env: Record<string, string>): ConfigError {
  try {
    ucpFaceSettings(loadConfig(env).ucp);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`started with ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1', port: 3000, baseUrl: undefined, databaseUrl: undefined, dataDir: './.butik', seed: 'demo',
      redisUrl: undefined, masterKey: undefined, trustProxy: false, rateLimits: { anon: 60, preauth: 120, key: 600, ucp: 600 },
      rateWindowSeconds: 60,
    });
    expect(resolveBaseUrl(config, 3000)).toBe('http://127.0.0.1:3000');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0', PORT: '0', BASE_URL: 'https://shop.example/', DATABASE_URL: 'postgresql://u:p@db/butik',
      BUTIK_DATA_DIR: '/var/lib/butik', BUTIK_SEED: 'none', REDIS_URL: 'rediss://cache:6380', BUTIK_MASTER_KEY: 'm'.repeat(32),
      BUTIK_TRUST_PROXY: 'true', BUTIK_RATE_LIMITS: 'anon:5,key:7', BUTIK_RATE_WINDOW_S: '10',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0', port: 0, baseUrl: 'https://shop.example', databaseUrl: 'postgresql://u:p@db/butik', dataDir: '/var/lib/butik',
      seed: 'none', redisUrl: 'rediss://cache:6380', masterKey: 'm'.repeat(32), trustProxy: true,
      rateLimits: { anon: 5, preauth: 120, key: 7, ucp: 600 }, rateWindowSeconds: 10,
    });
    expect(resolveBaseUrl(config, 1234)).toBe('https://shop.example');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', BUTIK_SEED: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, seed: 'demo', databaseUrl: undefined });
  });

  it('reads the embedded memory budget as a size in kB, MB or GB and leaves it unset by default', () => {
    expect(loadConfig({}).embeddedMemoryBytes).toBeUndefined();
    expect(loadConfig({ BUTIK_EMBEDDED_MEMORY: '256MB' }).embeddedMemoryBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ BUTIK_EMBEDDED_MEMORY: '1GB' }).embeddedMemoryBytes).toBe(1024 ** 3);
    expect(loadConfig({ BUTIK_EMBEDDED_MEMORY: '32768kB' }).embeddedMemoryBytes).toBe(32 * 1024 * 1024);
  });

  it('brackets an IPv6 host in the default base URL', () => {
    expect(resolveBaseUrl(loadConfig({ HOST: '::1' }), 8080)).toBe('http://[::1]:8080');
  });

  const bad: Array<[string, string]> = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', ' '],
    ['PORT', '1e3'],
    ['BUTIK_SEED', 'x'],
    ['DATABASE_URL', 'mysql://root:hunter2@db/butik'],
    ['BUTIK_MASTER_KEY', 'too-short-secret'],
    ['BASE_URL', 'ftp://shop.example'],
    ['REDIS_URL', 'http://cache'],
    ['BUTIK_TRUST_PROXY', 'maybe'],
    ['BUTIK_RATE_LIMITS', 'anon=5'],
    ['BUTIK_RATE_WINDOW_S', '0'],
    ['LOG_LEVEL', 'loud'],
    ['BUTIK_UCP_MODE', 'on'],
    ['BUTIK_UCP_AUTH', 'token'],
    ['BUTIK_RATE_LIMITS', 'ucp:x'],
    ['BUTIK_EMBEDDED_MEMORY', '64'],
    ['BUTIK_EMBEDDED_MEMORY', '64mb'],
    ['BUTIK_EMBEDDED_MEMORY', '8MB'],
  ];
  for (const [name, value] of bad) {
    it(`rejects ${name}=${JSON.stringify(value)} with a ConfigError naming ${name}`, () => {
      const error = configError({ [name]: value });
      expect(error.message).toContain(name);
      if (value.trim().length > 3) expect(error.message).not.toContain(value);
    });
  }

  it('names every bad variable at once', () => {
    const error = configError({ PORT: 'abc', BUTIK_SEED: 'x' });
    expect(error.message).toMatch(/PORT/);
    expect(error.message).toMatch(/BUTIK_SEED/);
  });
});

describe('loopback client metadata documents', () => {
  it('are off by default and on with the switch for a local http shop', () => {
    expect(loadConfig({}).oauth.loopbackClientDocuments).toBe(false);
    expect(loadConfig({ BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: '1', BASE_URL: 'http://127.0.0.1:3000' }).oauth.loopbackClientDocuments).toBe(true);
  });

  it('are refused at start in live mode and behind an https BASE_URL, naming the setting', () => {
    for (const env of [{ BUTIK_UCP_MODE: 'live' }, { BASE_URL: 'https://shop.example' }] as Array<Record<string, string>>) {
      const error = configError({ BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: '1', ...env });
      expect(error.message).toMatch(/BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: .*tests and local hosts only/);
    }
  });
});

describe('UCP configuration', () => {
  const handlersFile = (handlers: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'butik-ucp-'));
    const file = join(dir, 'handlers.json');
    writeFileSync(file, JSON.stringify(handlers));
    return file;
  };
  const mock = {
    id: 'mock_payment_handler', name: 'dev.ucp.mock_payment', version: '2026-01-11', spec: 'https://ucp.dev/specs/mock',
    config_schema: 'https://ucp.dev/schemas/mock.json', instrument_schemas: [], config: {}, processor: 'mock',
  };

  it('is off by default and advertises the mock handler in test mode', () => {
    expect(loadConfig({}).ucp).toEqual({ mode: 'off', paymentHandlersFile: undefined, simulationSecret: undefined, savedAddresses: false, trustedPlatforms: [], auth: 'open', signatures: 'optional', version: undefined });
    expect(ucpFaceSettings(loadConfig({}).ucp)).toEqual({ paymentHandlers: [], version: '2026-04-08' });
    expect(ucpFaceSettings(loadConfig({ BUTIK_UCP_VERSION: '2026-01-11' }).ucp).version).toBe('2026-01-11');
    expect(configError({ BUTIK_UCP_VERSION: '2026-02-30' }).message).toMatch(/BUTIK_UCP_VERSION/);
    // A date Butik implements no version of is the UCP face's to refuse, when it starts.
    expect(ucpStartError({ BUTIK_UCP_VERSION: '2030-01-01' }).message).toMatch(/BUTIK_UCP_VERSION: Butik implements UCP 2026-04-08, 2026-01-23, 2026-01-11, not 2030-01-01/);
    expect(loadConfig({ BUTIK_UCP_AUTH: 'key' }).ucp.auth).toBe('key');
    expect(loadConfig({ BUTIK_UCP_SAVED_ADDRESSES: 'true' }).ucp.savedAddresses).toBe(true);
    expect(ucpFaceSettings(loadConfig({ BUTIK_UCP_MODE: 'test' }).ucp).paymentHandlers).toEqual([expect.objectContaining({ id: 'mock_payment_handler', processor: 'mock' })]);
    expect(loadConfig({ BUTIK_RATE_LIMITS: 'ucp:20' }).rateLimits.ucp).toBe(20);
  });

  it('checks platform request signatures when sent in test mode, and requires them when asked to or live', () => {
    expect(loadConfig({ BUTIK_UCP_MODE: 'test' }).ucp.signatures).toBe('optional');
    expect(loadConfig({ BUTIK_UCP_MODE: 'test', BUTIK_UCP_SIGNATURES: 'required' }).ucp.signatures).toBe('required');
    expect(configError({ BUTIK_UCP_MODE: 'live', BUTIK_UCP_SIGNATURES: 'optional' }).message).toMatch(/BUTIK_UCP_SIGNATURES: live mode requires signed platform requests/);
    expect(configError({ BUTIK_UCP_MODE: 'test', BUTIK_UCP_SIGNATURES: 'sometimes' }).message).toMatch(/BUTIK_UCP_SIGNATURES/);
  });

  it('trusts no platform by default, and trusted platforms only with saved addresses and, live, over https', () => {
    const trusted = { BUTIK_UCP_MODE: 'test', BUTIK_UCP_SAVED_ADDRESSES: 'true', BUTIK_UCP_TRUSTED_PLATFORMS: 'https://a.example/profile , http://localhost:8285/p' };
    expect(loadConfig(trusted).ucp.trustedPlatforms).toEqual(['https://a.example/profile', 'http://localhost:8285/p']);
    expect(configError({ ...trusted, BUTIK_UCP_SAVED_ADDRESSES: 'false' }).message).toMatch(/BUTIK_UCP_TRUSTED_PLATFORMS: offers saved addresses, so it needs BUTIK_UCP_SAVED_ADDRESSES=true/);
    expect(configError({ ...trusted, BUTIK_UCP_TRUSTED_PLATFORMS: 'not a url' }).message).toMatch(/BUTIK_UCP_TRUSTED_PLATFORMS: expected platform profile URLs/);
    expect(configError({ ...trusted, BUTIK_UCP_MODE: 'live' }).message).toMatch(/BUTIK_UCP_TRUSTED_PLATFORMS: live mode reads platform profiles over https only/);
  });

  it('believes an unsigned UCP-Agent naming a trusted platform only on a server that listens on loopback', () => {
    const trusted = { BUTIK_UCP_MODE: 'test', BUTIK_UCP_SAVED_ADDRESSES: 'true', BUTIK_UCP_TRUSTED_PLATFORMS: 'http://localhost:8285/p' };
    for (const HOST of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(loadConfig({ ...trusted, HOST }).host).toBe(HOST);
    for (const HOST of ['0.0.0.0', '::', '192.168.1.10']) {
      expect(configError({ ...trusted, HOST }).message).toMatch(/BUTIK_UCP_TRUSTED_PLATFORMS: test mode believes an unsigned UCP-Agent.*HOST=127\.0\.0\.1.*BUTIK_UCP_SIGNATURES=required/s);
    }
    // Signed requests only: nothing is believed on the header's word, so any address may listen.
    expect(loadConfig({ ...trusted, HOST: '0.0.0.0', BUTIK_UCP_SIGNATURES: 'required' }).ucp.trustedPlatforms).toEqual(['http://localhost:8285/p']);
  });

  it('takes a simulation secret in test mode only', () => {
    expect(loadConfig({ BUTIK_UCP_MODE: 'test', BUTIK_UCP_SIMULATION_SECRET: 's'.repeat(16) }).ucp.simulationSecret).toBe('s'.repeat(16));
    expect(configError({ BUTIK_UCP_MODE: 'off', BUTIK_UCP_SIMULATION_SECRET: 's'.repeat(16) }).message).toMatch(/BUTIK_UCP_SIMULATION_SECRET: only test mode/);
    expect(configError({ BUTIK_UCP_MODE: 'test', BUTIK_UCP_SIMULATION_SECRET: 'short' }).message).toMatch(/BUTIK_UCP_SIMULATION_SECRET/);
  });

  it('reads the handlers file in test mode', () => {
    const config = loadConfig({ BUTIK_UCP_MODE: 'test', BUTIK_UCP_PAYMENT_HANDLERS: handlersFile([{ ...mock, id: 'cards' }]) });
    expect(ucpFaceSettings(config.ucp).paymentHandlers.map((handler) => handler.id)).toEqual(['cards']);
  });

  const refused: Array<[string, Record<string, string>, RegExp]> = [
    ['live mode without a handlers file', { BUTIK_UCP_MODE: 'live' }, /live mode needs a file/],
    ['the mock processor in live mode', { BUTIK_UCP_MODE: 'live', BUTIK_UCP_PAYMENT_HANDLERS: handlersFile([mock]) }, /only runs in test mode/],
    ['an unknown processor', { BUTIK_UCP_MODE: 'test', BUTIK_UCP_PAYMENT_HANDLERS: handlersFile([{ ...mock, processor: 'stripe' }]) }, /0\.processor/],
    ['a handler id declared twice', { BUTIK_UCP_MODE: 'test', BUTIK_UCP_PAYMENT_HANDLERS: handlersFile([mock, mock]) }, /declared twice/],
    ['a file that is not JSON', { BUTIK_UCP_MODE: 'test', BUTIK_UCP_PAYMENT_HANDLERS: handlersFile('x').replace('handlers.json', 'missing.json') }, /cannot read/],
  ];
  for (const [what, env, message] of refused) {
    it(`refuses ${what} when the UCP face starts`, () => {
      const error = ucpStartError(env);
      expect(error.message).toMatch(/BUTIK_UCP_PAYMENT_HANDLERS/);
      expect(error.message).toMatch(message);
    });
  }
});

describe('an app with UCP on and a bad payment-handler file', () => {
  it('does not start: the ConfigError names the variable', async () => {
    const { createTestApp } = await import('./helpers/app.ts');
    const missing = join(mkdtempSync(join(tmpdir(), 'butik-handlers-')), 'missing.json');
    const started = createTestApp({ env: { BUTIK_UCP_MODE: 'test', BUTIK_UCP_PAYMENT_HANDLERS: missing } });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/BUTIK_UCP_PAYMENT_HANDLERS: cannot read .*missing\.json \(ENOENT\)/);
  });
});

describe('butik serve with a bad configuration', () => {
  it('exits non-zero with a message naming the variable, without starting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'butik-config-'));
    try {
      const [port, database] = await Promise.all([
        runButik(['serve'], { PORT: 'abc', BUTIK_DATA_DIR: dataDir }),
        runButik(['serve'], { DATABASE_URL: 'mysql://root:hunter2@db/butik', BUTIK_DATA_DIR: dataDir }),
      ]);
      expect(port.code).toBe(2);
      expect(port.stderr).toMatch(/Invalid configuration/);
      expect(port.stderr).toMatch(/PORT/);
      expect(database.code).toBe(2);
      expect(database.stderr).toMatch(/DATABASE_URL/);
      expect(database.stderr).not.toContain('hunter2');
      expect(port.stdout + database.stdout).not.toMatch(/listening/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
