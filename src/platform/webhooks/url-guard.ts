import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a webhook may not reach: loopback, private, link-local, CGNAT, multicast, unspecified. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

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
      const bad = list.find((a) => !allowPrivate && isPrivateAddress(a.address));
      if (bad) return callback(new UnsafeUrl(`${hostname} resolves to a private address (${bad.address})`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
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
  await new Promise<void>((resolve, reject) => guardedLookup(false)(host, { all: true }, (error) => (error ? reject(error) : resolve())));
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
