import { adminKeyLocation, adminKeySource, localOrigin, startLine } from './development-hints';

describe('development hints (the start line and the sign-in page)', () => {
  const base = { production: false, adminApiKeyFile: '/srv/gw/.data/secrets.json', host: '0.0.0.0', console: { publicUrl: undefined } };

  it('names the secrets file relative to the working directory when under it, else in full', () => {
    expect(adminKeySource(base, '/srv/gw')).toEqual({ file: '.data/secrets.json' });
    expect(adminKeySource(base, '/elsewhere')).toEqual({ file: '/srv/gw/.data/secrets.json' });
    expect(adminKeySource({ ...base, adminApiKeyFile: undefined })).toEqual({ environment: true });
    expect(adminKeyLocation({ file: '.data/secrets.json' })).toBe('ADMIN_API_KEY in .data/secrets.json');
    expect(adminKeyLocation({ environment: true })).toBe("the ADMIN_API_KEY set in the service's environment");
  });

  it('says nothing in production', () => {
    expect(adminKeySource({ ...base, production: true })).toBeUndefined();
    expect(startLine({ ...base, production: true }, 3000)).toBeUndefined();
  });

  it('gives the console\'s address as a browser on this machine reaches it, or PUBLIC_URL', () => {
    expect(startLine(base, 3104, '/srv/gw')).toBe(
      'Action Gateway is listening: console at http://localhost:3104/console (admin key: ADMIN_API_KEY in .data/secrets.json), API at http://localhost:3104/api/v1/gateway',
    );
    expect(startLine({ ...base, console: { publicUrl: 'https://gw.example.test' } }, 3104, '/srv/gw')).toContain('console at https://gw.example.test/console');
    expect([localOrigin('::', 1), localOrigin('127.0.0.1', 2), localOrigin('::1', 3)]).toEqual(['http://localhost:1', 'http://127.0.0.1:2', 'http://[::1]:3']);
  });
});
