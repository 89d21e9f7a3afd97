import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { expectGolden, expectWellFormed, normaliseSnapshot } from '../../../../test/config-golden.js';
import { compileConfiguration, deliverableContent, loadConfigurationSnapshot, manifestFile, type ConfigurationSnapshot } from './index.js';

/** A fixed instant: the holiday window (2026 and 2027) does not move with the day the test runs. */
const NOW = new Date('2026-03-02T10:00:00Z');

describe('configuration compiler: the demo tenant', () => {
  let t: TestApp;
  let tenant: DemoTenant;
  let snapshot: ConfigurationSnapshot;

  beforeAll(async () => {
    t = await buildTestApp();
    const { seed } = await seedDemo(t.ctx);
    tenant = seed.tenants[0];
    snapshot = await loadConfigurationSnapshot(t.ctx.db, { pbxId: tenant.pbx_id }, { now: NOW });
  });
  afterAll(() => t.close());

  it('compiles the demo tenant to the golden files', () => {
    const compiled = compileConfiguration(normaliseSnapshot(snapshot));
    expect(compiled.files.map((f) => f.name)).toEqual(['extensions.conf', 'musiconhold.conf', 'pjsip.conf', 'queues.conf', 'voicemail.conf']);
    for (const file of compiled.files) expectWellFormed(file.content);
    expectGolden('demo', compiled.files);
  });

  it('is deterministic: the same data gives byte-identical files, whatever the row order', async () => {
    const first = compileConfiguration(snapshot);
    const again = compileConfiguration(await loadConfigurationSnapshot(t.ctx.db, { pbxId: tenant.pbx_id }, { now: NOW }));
    expect(again.files.map((f) => f.content)).toEqual(first.files.map((f) => f.content));
    expect(again.hash).toBe(first.hash);
    const reversed = Object.fromEntries(
      Object.entries(snapshot).map(([key, value]) => [key, Array.isArray(value) ? [...(value as unknown[])].reverse() : value]),
    ) as unknown as ConfigurationSnapshot;
    reversed.queues = reversed.queues.map((q) => ({ ...q }));
    reversed.ivrs = reversed.ivrs.map((ivr) => ({ ...ivr, steps: [...ivr.steps].reverse() }));
    const shuffled = compileConfiguration(reversed);
    expect(shuffled.files.map((f) => f.content)).toEqual(first.files.map((f) => f.content));
    expect(shuffled.hash).toBe(first.hash);
  });

  it('keeps secrets out of the content and puts them into the delivered files only', () => {
    const compiled = compileConfiguration(snapshot);
    const pjsip = compiled.files.find((f) => f.name === 'pjsip.conf')!;
    const device = snapshot.sipDevices[0];
    const secret = t.ctx.secrets.open(device.secretSealed);
    expect(pjsip.content).not.toContain(secret);
    expect(pjsip.secrets?.length).toBeGreaterThanOrEqual(2);
    const delivered = deliverableContent(pjsip, (sealed) => t.ctx.secrets.open(sealed));
    expect(delivered).toContain(`password = ${secret.replace(/;/g, '\\;')}`);
    expect(delivered).not.toContain('pbxapi-sealed-');
    const voicemail = compiled.files.find((f) => f.name === 'voicemail.conf')!;
    expect(deliverableContent(voicemail, (sealed) => t.ctx.secrets.open(sealed))).toMatch(/^\d+ => \d{4,12},/m);
  });

  it('changes the hash when a secret changes, without showing it', async () => {
    const before = compileConfiguration(snapshot);
    const device = snapshot.sipDevices[0];
    const changed = { ...snapshot, sipDevices: [{ ...device, secretSealed: t.ctx.secrets.seal('another-secret-value') }, ...snapshot.sipDevices.slice(1)] };
    const after = compileConfiguration(changed);
    expect(after.hash).not.toBe(before.hash);
    expect(after.files.find((f) => f.name === 'pjsip.conf')!.content).not.toContain('another-secret-value');
  });

  it('writes a manifest with the version, each file hash and the generation time', () => {
    const compiled = compileConfiguration(snapshot);
    const manifest = manifestFile(compiled, { version: 3, generatedAt: '2026-03-02T10:00:00.000Z', pbxId: tenant.pbx_id });
    const parsed = JSON.parse(manifest.content) as { version: number; hash: string; generated_at: string; files: Array<{ name: string; sha256: string }> };
    expect(parsed).toMatchObject({ version: 3, hash: compiled.hash, generated_at: '2026-03-02T10:00:00.000Z', pbx_id: tenant.pbx_id });
    expect(parsed.files.map((f) => [f.name, f.sha256])).toEqual(compiled.files.map((f) => [f.name, f.sha256]));
  });
});
