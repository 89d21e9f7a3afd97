import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

describe('outbox mailer (no SMTP_URL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pbx-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each message as an .eml file a developer can open', async () => {
    const mailer = createMailer({ smtpUrl: null, from: 'PBX <no-reply@pbx.test>', outboxDir: join(dir, 'outbox') });
    await mailer.send({ to: 'luc.weber@acme.example', subject: 'Your login code: 123456', text: 'Your one-time login code is 123456.' });
    const files = readdirSync(join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/luc\.weber@acme\.example\.eml$/);
    const raw = readFileSync(join(dir, 'outbox', files[0]), 'utf8');
    expect(raw).toContain('To: luc.weber@acme.example');
    expect(raw).toContain('Subject: Your login code: 123456');
    expect(raw).toContain('From: PBX <no-reply@pbx.test>');
    mailer.close();
  });

  it('keeps the outbox (live login links and codes) to the service account: folder 0700, files 0600', async () => {
    const outbox = join(dir, 'private-outbox');
    const mailer = createMailer({ smtpUrl: null, from: 'PBX <no-reply@pbx.test>', outboxDir: outbox });
    await mailer.send({ to: 'anna.schmit@acme.example', subject: 'Your login link', text: 'https://pbx.test/api/v1/magic-login/abc' });
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(outbox)) expect(statSync(join(outbox, file)).mode & 0o777).toBe(0o600);
    mailer.close();
  });

  it('tightens an outbox folder that an older version created open to others', async () => {
    const outbox = join(dir, 'old-outbox');
    mkdirSync(outbox);
    chmodSync(outbox, 0o755);
    const mailer = createMailer({ smtpUrl: null, from: 'PBX <no-reply@pbx.test>', outboxDir: outbox });
    await mailer.send({ to: 'luc.weber@acme.example', subject: 'Your login code: 123456', text: 'Your one-time login code is 123456.' });
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    mailer.close();
  });
});
