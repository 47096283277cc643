import { createHash } from 'node:crypto';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { createSessionRecorder, openHome, rightOrThrow } from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostNameOf, isLoopback } from '../src/security/guard.js';
import { boardApp, csrfToken, emptyHome, followed, origin, post, snapshot } from './helpers.js';

describe('the request guard', () => {
  let path: string;
  let app: Awaited<ReturnType<typeof boardApp>>['app'];
  let taskId: string;

  beforeAll(async () => {
    path = emptyHome();
    const home = openHome(path);
    const { addTask } = await import('@mecha/stores');
    const added = rightOrThrow(await addTask(home, { title: 'Write the report', status: 'next' }));
    taskId = added.task.id;
    ({ app } = await boardApp(path));
  });

  const close = (headers: Record<string, string>, fields: Record<string, string> = {}) =>
    post(app, `/board/${taskId}/close`, { to: 'done', csrf: csrfToken, ...fields }, headers);

  it('refuses a foreign Host header before anything runs, and writes nothing', async () => {
    const before = snapshot(path);
    const page = await app.request('http://evil.example/', { headers: { host: 'evil.example' } });
    expect(page.status).toBe(421);
    const act = await post(
      app,
      `/board/${taskId}/close`,
      { to: 'done', csrf: csrfToken },
      {
        host: 'rebound.example:4380',
        origin: 'http://rebound.example:4380',
      },
    );
    expect(act.status).toBe(421);
    expect(await act.text()).toMatch(/not this board's/);
    expect(snapshot(path)).toEqual(before);
  });

  it('refuses a cross-origin POST, one with no origin, and one with no or a wrong CSRF token, writing nothing', async () => {
    const before = snapshot(path);
    expect((await close({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await close({})).status).toBe(403);
    expect((await close({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(app, `/board/${taskId}/close`, { to: 'done' })).status).toBe(403);
    expect((await close({ origin }, { csrf: 'not-the-token' })).status).toBe(403);
    expect(snapshot(path)).toEqual(before);
  });

  it('lets the same-origin form with its token through (the check can pass)', async () => {
    const done = await followed(app, close({ origin }));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`Closed ${taskId}: next → done`);
  });

  it('sends a Content-Security-Policy with no inline script, and pages carry no inline script', async () => {
    const page = await app.request(`${origin}/`);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    for (const route of [
      '/',
      '/board',
      '/drafts',
      '/charter',
      '/corpus',
      '/successes',
      '/honesty',
      '/review',
    ]) {
      const text = await (await app.request(`${origin}${route}`)).text();
      expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(text).not.toMatch(/\sstyle=|\son[a-z]+=/i);
      // One inline style, the board's own stylesheet, allowed by its hash and nothing else.
      const styles = [...text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((found) => found[1]);
      expect(styles).toHaveLength(1);
      const hash = createHash('sha256')
        .update(styles[0] ?? '')
        .digest('base64');
      expect(policy).toContain(`style-src 'self' 'sha256-${hash}';`);
    }
  });

  it('asks for the bearer token off loopback: link once, then the cookie, or the header', async () => {
    const { app: guarded } = await boardApp(path, {
      bearerToken: 'sekrit-token',
      allowedHosts: ['board.example'],
    });
    const base = 'http://board.example:4380';
    expect((await guarded.request(`${base}/`)).status).toBe(401);
    expect((await guarded.request(`${base}/?token=wrong`)).status).toBe(401);
    const link = await guarded.request(`${base}/board?token=sekrit-token`);
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/board');
    const cookie = (link.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(link.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect((await guarded.request(`${base}/board`, { headers: { cookie } })).status).toBe(200);
    const bearer = await guarded.request(`${base}/`, {
      headers: { authorization: 'Bearer sekrit-token' },
    });
    expect(bearer.status).toBe(200);
    // Another name is still refused: the token does not widen the Host check.
    const other = await guarded.request('http://other.example/', {
      headers: { host: 'other.example', authorization: 'Bearer sekrit-token' },
    });
    expect(other.status).toBe(421);
  });

  it('shows a transcript’s markup as text', async () => {
    const hostile = emptyHome();
    const home = openHome(hostile);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'web' }));
    rightOrThrow(
      await run.message({
        turn: 1,
        role: 'assistant',
        taint: 'third_party',
        text: '<script>window.pwned = 1</script><img src=x onerror="alert(1)"> "quoted" & done',
      }),
    );
    rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
    rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
    const { app: board } = await boardApp(hostile);
    const text = await (await board.request(`${origin}/`)).text();
    expect(text).toContain(
      '&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;',
    );
    expect(text).not.toContain('<script>window.pwned');
    expect(text).not.toContain('<img src=x');
  });
});

describe('host names', () => {
  it('knows the loopback names', () => {
    for (const name of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost']) {
      expect(isLoopback(name)).toBe(true);
    }
    for (const name of ['0.0.0.0', 'example.com', '128.0.0.1', 'localhost.example.com', '[::2]']) {
      expect(isLoopback(name)).toBe(false);
    }
    expect(hostNameOf('[::1]:4380')).toBe('[::1]');
    expect(hostNameOf('LocalHost:80')).toBe('localhost');
  });

  propertyTest.prop([fc.domain()])('refuses every name that is not loopback', (domain) => {
    fc.pre(!domain.endsWith('localhost') && !/^127\./.test(domain));
    expect(isLoopback(hostNameOf(`${domain}:4380`))).toBe(false);
  });
});
