import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP when `SMTP_URL` is set; otherwise RFC 822 files in an outbox folder a developer can read. */
export function createMailer(options: { smtpUrl: string | null; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) return transportMailer(nodemailer.createTransport(options.smtpUrl), options.from);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      await writeFile(join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`), info.message as Buffer);
    },
    close: () => transport.close(),
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
