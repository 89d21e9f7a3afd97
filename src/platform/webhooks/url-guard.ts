import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress, resolveHost, type ResolvedAddress } from '../net/addresses.js';

export class UnsafeUrl extends Error {}

/**
 * A DNS lookup that refuses private answers. It is the lookup the socket itself uses, so a name
 * that resolves differently between a check and the connection (DNS rebinding) is still refused.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      const bad = allowPrivate ? undefined : privateAnswer(hostname, list);
      if (bad) return callback(bad, '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** Webhooks reach public addresses only: the refusal for the first private one a name resolved to. */
function privateAnswer(hostname: string, addresses: readonly Pick<ResolvedAddress, 'address'>[]): UnsafeUrl | undefined {
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  return bad ? new UnsafeUrl(`${hostname} resolves to a private address (${bad.address})`) : undefined;
}

function checkTarget(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrl(`unsupported scheme ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) throw new UnsafeUrl(`${host} is a private address`);
  if (!allowPrivate && /^localhost$/i.test(host)) throw new UnsafeUrl('localhost is not allowed');
}

/** Resolves a URL's host now, for early feedback when a webhook URL is saved. */
export async function assertPublicUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = new URL(raw);
  checkTarget(url, allowPrivate);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || isIP(host)) return;
  const bad = privateAnswer(host, await resolveHost(host));
  if (bad) throw bad;
}

export interface PostResult {
  status: number;
  body: string;
}

/** POSTs a body, following up to `maxRedirects` redirects, each target checked like the first. */
export async function postGuarded(
  raw: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number; maxRedirects?: number },
): Promise<PostResult> {
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    checkTarget(url, options.allowPrivate);
    const response = await send(url, headers, body, options);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (hop >= (options.maxRedirects ?? 3)) throw new UnsafeUrl('too many redirects');
      url = new URL(location, url);
      continue;
    }
    let text = '';
    response.setEncoding('utf8');
    for await (const chunk of response) if (text.length < 2000) text += chunk as string;
    return { status: response.statusCode ?? 0, body: text.slice(0, 2000) };
  }
}

function send(url: URL, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number }): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
      lookup: guardedLookup(options.allowPrivate),
      timeout: options.timeoutMs,
    });
    req.on('response', resolve);
    req.on('timeout', () => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
