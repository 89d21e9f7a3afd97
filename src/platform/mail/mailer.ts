import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type nodemailerModule from 'nodemailer';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * The outbox holds live login links and codes: the folder is the service account's alone (0700,
 * tightened if an older version left it open) and each message is written 0600.
 */
async function privateFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o700);
}

/** nodemailer is loaded when the first message is written or SMTP is configured, not on every start. */
const loadNodemailer = () => createRequire(import.meta.url)('nodemailer') as typeof nodemailerModule;

/** SMTP when `SMTP_URL` is set; otherwise RFC 822 files in an outbox folder a developer can read. */
export function createMailer(options: { smtpUrl: string | null; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) return transportMailer(loadNodemailer().createTransport(options.smtpUrl), options.from);
  let transport: Transporter | undefined;
  return {
    async send(message) {
      transport ??= loadNodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transport.sendMail({ from: options.from, ...message });
      await privateFolder(options.outboxDir);
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      await writeFile(join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`), info.message as Buffer, { mode: 0o600 });
    },
    close: () => transport?.close(),
  };
}

function transportMailer(transport: Transporter, from: string): Mailer {
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
