/**
 * The README's example, run as written against a started server holding the demo data: only the
 * server's address, the package's name (its source here) and the WAV file's path are put in.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../../src/demo-seed.js';
import { toneWav } from '../../../src/modules/routing/sound-files/wav.js';
import { useTestApp } from '../../../test/helpers.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)![1];
const dir = mkdtempSync(join(tmpdir(), 'pbx-api-sdk-readme-'));

describe("the SDK README's example", () => {
  const t = useTestApp();
  let baseUrl: string;
  let seededEmails: string[];

  beforeAll(async () => {
    const { seed } = await seedDemo(t.ctx);
    seededEmails = seed.tenants[0].users.map((user) => user.email);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has ten lines, and runs: it lists the users, creates and changes a contact, uploads a sound file and reads a 422', async () => {
    expect(example.trimEnd().split('\n')).toHaveLength(10);
    writeFileSync(join(dir, 'welcome.wav'), toneWav({ seconds: 0.5, frequencyHz: 440 }));
    const source = example
      .replace('http://127.0.0.1:8080/api/v1', baseUrl)
      .replace("'@pbx-api/sdk'", JSON.stringify(fileURLToPath(new URL('../src/index.ts', import.meta.url))))
      .replace("readFile('welcome.wav')", `readFile(${JSON.stringify(join(dir, 'welcome.wav'))})`);
    expect(source).not.toBe(example);
    // What it prints is collected by the module itself (no console stubbed): imports are hoisted, so a line before them is fine.
    writeFileSync(join(dir, 'example.ts'), `export const printed: unknown[] = [];\n${source.replaceAll('console.log(', 'printed.push(')}`);
    const { printed } = (await import(join(dir, 'example.ts'))) as { printed: unknown[] };
    expect(printed).toEqual(expect.arrayContaining(seededEmails));
    expect(printed.at(-1)).toEqual([expect.any(String)]);
    const contacts = await t.app.inject({ url: '/api/v1/contacts?search=Ada%20King', headers: { authorization: `Bearer ${(await signInAnna()).token}` } });
    expect(contacts.json().data.map((c: { name1: string }) => c.name1)).toContain('Ada King');
  }, 60_000);

  async function signInAnna() {
    const match = /email: '([^']+)', password: '([^']+)'/.exec(example)!;
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: match[1], password: match[2] } });
    return answer.json().data as { token: string };
  }
});
