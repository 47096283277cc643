import { describe, expect, it } from 'vitest';
import { createApp } from './create-app.js';

describe('the web app', () => {
  it('answers a health check with its version', async () => {
    const response = await createApp({ version: '1.2.3' }).request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, service: 'mecha-web', version: '1.2.3' });
  });

  it('answers 404 for a route it does not have', async () => {
    const response = await createApp({ version: '1.2.3' }).request('/nope');
    expect(response.status).toBe(404);
  });
});
