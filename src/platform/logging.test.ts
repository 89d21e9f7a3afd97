import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { logTransport, maskUrl } from './logging.js';

describe('maskUrl', () => {
  it('masks magic-link tokens in the path', () => {
    expect(maskUrl('/api/v1/magic-login/SuperSecretMagicToken1234567890')).toBe('/api/v1/magic-login/[REDACTED]');
    expect(maskUrl('/api/v1/magic-login/SuperSecretMagicToken1234567890?x=1')).toBe('/api/v1/magic-login/[REDACTED]?x=1');
  });

  it('masks the values of sensitive query parameters, whatever their case, and keeps the others', () => {
    expect(maskUrl('/api/v1/me?access_token=pbxu_abc&page=2')).toBe('/api/v1/me?access_token=[REDACTED]&page=2');
    expect(maskUrl('/api/v1/me?page=2&Access_Token=pbxu_abc')).toBe('/api/v1/me?page=2&Access_Token=[REDACTED]');
    for (const name of ['token', 'TOKEN', 'api_key', 'apiKey', 'key', 'code', 'password', 'secret', 'client_secret', 'signature', 'X-Amz-Signature', 'sig']) {
      expect(maskUrl(`/x?${name}=s3cr3t-value&b=1`), name).toBe(`/x?${name}=[REDACTED]&b=1`);
    }
    expect(maskUrl('/api/v1/cdrs?perPage=5&sort=-start_time&filter[user_id]=1&cursor=abc')).toBe(
      '/api/v1/cdrs?perPage=5&sort=-start_time&filter[user_id]=1&cursor=abc',
    );
  });

  it('recognises encoded names, bracketed names, repeated and empty parameters', () => {
    expect(maskUrl('/x?access%5Ftoken=s3cr3t')).toBe('/x?access%5Ftoken=[REDACTED]');
    expect(maskUrl('/x?%61ccess_token=s3cr3t')).toBe('/x?%61ccess_token=[REDACTED]');
    expect(maskUrl('/x?access%255Ftoken=s3cr3t')).toBe('/x?access%255Ftoken=[REDACTED]');
    expect(maskUrl('/x?auth[token]=s3cr3t&auth%5Bpassword%5D=hunter2')).toBe('/x?auth[token]=[REDACTED]&auth%5Bpassword%5D=[REDACTED]');
    expect(maskUrl('/x?token=a&token=b&token')).toBe('/x?token=[REDACTED]&token=[REDACTED]&token');
    expect(maskUrl('/x?token=')).toBe('/x?token=[REDACTED]');
    expect(maskUrl('/x?%E0%A4%A=1&code=123456')).toBe('/x?%E0%A4%A=1&code=[REDACTED]');
  });

  it('leaves URLs without anything sensitive as they are', () => {
    for (const url of ['/api/v1/me', '/api/v1/contacts?search=anna&page=1', '/health', '/api/v1/cdrs/recording?path=2026/11/rec.wav'])
      expect(maskUrl(url)).toBe(url);
  });
});

describe('log format', () => {
  it('is pretty on a development terminal, and JSON for a pipe, tests and production unless asked', () => {
    expect(logTransport({ logFormat: 'auto', env: 'development' }, true)?.target).toMatch(/pino-pretty/);
    expect(logTransport({ logFormat: 'auto', env: 'development' }, false)).toBeUndefined();
    expect(logTransport({ logFormat: 'auto', env: 'production' }, true)).toBeUndefined();
    expect(logTransport({ logFormat: 'auto', env: 'test' }, true)).toBeUndefined();
    expect(logTransport({ logFormat: 'json', env: 'development' }, true)).toBeUndefined();
    expect(logTransport({ logFormat: 'pretty', env: 'production' }, false)).toMatchObject({
      target: expect.stringMatching(/pino-pretty/),
      options: { colorize: false },
    });
  });

  it('refuses a format it does not know', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be json, pretty or auto/);
    expect(loadConfig({}).logFormat).toBe('auto');
  });
});
