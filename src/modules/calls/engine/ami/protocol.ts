/**
 * The Asterisk Manager Interface wire format: a banner line (`Asterisk Call Manager/x.y.z`), then
 * messages of `Key: Value` lines closed by an empty line. Keys may repeat (`Variable:`,
 * `Output:`); the legacy `Response: Follows` answer carries free text up to `--END COMMAND--`.
 */

export type AmiFields = Array<[string, string]>;

export class AmiMessage {
  constructor(
    readonly fields: AmiFields,
    /** Free-text lines of a legacy `Response: Follows` answer. */
    readonly text: string[] = [],
  ) {}

  /** The first value of a key (case-insensitive), or undefined. */
  get(key: string): string | undefined {
    const lower = key.toLowerCase();
    return this.fields.find(([name]) => name.toLowerCase() === lower)?.[1];
  }

  /** Every value of a repeated key. */
  all(key: string): string[] {
    const lower = key.toLowerCase();
    return this.fields.filter(([name]) => name.toLowerCase() === lower).map(([, value]) => value);
  }

  get isEvent(): boolean {
    return this.get('Event') !== undefined;
  }

  get isResponse(): boolean {
    return this.get('Response') !== undefined && !this.isEvent;
  }

  /** Output lines of a command, in either the modern (`Output:` keys) or the legacy form. */
  get output(): string[] {
    return [...this.all('Output'), ...this.text];
  }
}

const END_COMMAND = '--END COMMAND--';

/** Turns a byte stream into the banner and messages; feed it chunks as they arrive. */
export class AmiParser {
  private buffer = '';
  private bannerSeen = false;
  private fields: AmiFields = [];
  private text: string[] = [];
  private follows = false;

  constructor(
    private readonly onBanner: (banner: string) => void,
    private readonly onMessage: (message: AmiMessage) => void,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (!this.bannerSeen) {
      this.bannerSeen = true;
      this.onBanner(line);
      return;
    }
    if (this.follows) {
      // Legacy command output: everything up to the end marker is text, blank lines included.
      if (line.endsWith(END_COMMAND)) {
        const rest = line.slice(0, -END_COMMAND.length);
        if (rest.trim()) this.text.push(rest.replace(/\n$/, ''));
        this.follows = false;
        return;
      }
      const header = /^(ActionID|Privilege|Message): ?(.*)$/i.exec(line);
      if (header && this.text.length === 0) this.fields.push([header[1], header[2]]);
      else this.text.push(line);
      return;
    }
    if (line === '') {
      if (this.fields.length) this.onMessage(new AmiMessage(this.fields, this.text));
      this.fields = [];
      this.text = [];
      return;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      this.text.push(line);
      return;
    }
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).replace(/^ /, '');
    this.fields.push([key, value]);
    if (key.toLowerCase() === 'response' && value.toLowerCase() === 'follows') this.follows = true;
  }
}

/** Serialises an action; values are single lines, so a CR or LF in one is refused. */
export function serializeAction(fields: AmiFields): string {
  for (const [key, value] of fields) {
    if (/[\r\n]/.test(key) || /[\r\n]/.test(value)) throw new Error(`AMI field ${key} contains a line break`);
  }
  return `${fields.map(([key, value]) => `${key}: ${value}`).join('\r\n')}\r\n\r\n`;
}

export const MASK = '********';
const SECRET_KEYS = new Set(['secret', 'key', 'password']);

/** The message as text for a trace, with secrets replaced by a mask. */
export function maskedText(fields: AmiFields, text: string[] = []): string {
  const lines = fields.map(([key, value]) => `${key}: ${SECRET_KEYS.has(key.toLowerCase()) ? MASK : value}`);
  return [...lines, ...text].join('\r\n');
}
